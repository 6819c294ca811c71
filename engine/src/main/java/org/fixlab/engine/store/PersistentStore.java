package org.fixlab.engine.store;

import org.agrona.DirectBuffer;

/**
 * What {@link FileStore} and {@link MappedStore} share: sequence numbers in
 * {@link SequenceNumberSlots}, the index of records, replay through it, the sync schedule, the
 * closed check and recovery's last step. Subclasses say where slots and records live.
 */
abstract sealed class PersistentStore implements MessageStore permits FileStore, MappedStore
{
    final String name;
    final SyncSchedule sync;
    private final ForceListener forceListener;
    private long forces;
    final ChunkedSequenceIndex index;
    final SequenceNumberSlots seqNums = new SequenceNumberSlots();
    final Crc32cRange crc = new Crc32cRange();
    private boolean closed;
    /** Whether a message was stored since the last duty cycle's flush: that cycle's answers wait for its end. */
    private boolean storedSinceFlush;
    /** Sequence numbers changed since they were last written (never under every-message): {@link #writePending} writes them. */
    private boolean seqNumsPending;

    PersistentStore(final String name, final StoreOptions options)
    {
        this.name = name;
        sync = new SyncSchedule(options.syncPolicy(), options.syncIntervalNanos());
        forceListener = options.forceListener();
        index = new ChunkedSequenceIndex(options.indexCapacity());
    }

    /** Recovers a newly constructed store's content, or closes it and rethrows. */
    static <T extends PersistentStore> T recovered(final T store)
    {
        try
        {
            store.recover();
            return store;
        }
        catch (final RuntimeException ex)
        {
            store.close();
            throw ex;
        }
    }

    @Override
    public final int nextSenderSeqNum()
    {
        checkOpen();
        return seqNums.nextSender();
    }

    @Override
    public final int nextTargetSeqNum()
    {
        checkOpen();
        return seqNums.nextTarget();
    }

    @Override
    public final void nextSenderSeqNum(final int seqNum)
    {
        checkOpen();
        seqNums.nextSender(seqNum);
        writeSeqNums();
    }

    @Override
    public final void nextTargetSeqNum(final int seqNum)
    {
        checkOpen();
        seqNums.nextTarget(seqNum);
        writeSeqNums();
    }

    @Override
    public final int replay(final int fromSeqNum, final int toSeqNum, final SentMessageHandler handler)
    {
        checkOpen();
        writePending(); // a record still in the batch is read back from the file like the others
        int reported = 0;
        for (long seqNum = Math.max(fromSeqNum, index.lowest()), last = Math.min(toSeqNum, index.highest()); seqNum <= last; seqNum++)
        {
            final long position = index.position((int)seqNum);
            // A record that no longer validates (damaged on disk since) is a hole, as if never stored.
            final int recordOffset = position == ChunkedSequenceIndex.MISSING ? -1 : loadRecord(position);
            if (recordOffset >= 0)
            {
                final DirectBuffer records = recordBuffer();
                handler.onMessage((int)seqNum, records, RecordDescriptor.payloadOffset(recordOffset),
                    RecordDescriptor.payloadLength(records, recordOffset));
                reported++;
            }
        }
        return reported;
    }

    /**
     * Under {@link SyncPolicy#INTERVAL}, forces what was written since the last force if the interval has passed;
     * then, on a duty cycle that stored nothing, one step of readying what the stores to come need: the index's
     * next chunk first, then {@link #prepareAhead}. A cycle that stored takes no step, so its answers go out first.
     */
    @Override
    public final void flush(final long nowNanos)
    {
        checkOpen();
        writePending();
        if (sync.isDue(nowNanos))
        {
            forceAll();
            sync.onForced(nowNanos);
            forced();
        }
        if (storedSinceFlush)
        {
            storedSinceFlush = false;
        }
        else if (!index.stepAhead())
        {
            prepareAhead();
        }
    }

    /**
     * Writes the sequence numbers this duty cycle changed, once: before the transport writes to the socket and at the
     * end of every duty cycle ({@link #flush}), so no MsgSeqNum a peer can have seen is reused after a crash of the
     * process. A record is written as it is stored, and recovery moves the sender number past the highest stored one,
     * so deferring the numbers loses no message; a crash inside the duty cycle may leave the target number behind
     * messages already processed, which the peer then resends (PossDupFlag), as after a crash inside the application's
     * callback. Written per message, each number cost a slot with its CRC32C: 2.5% of {@code balanced}'s sending
     * thread in a stream, 3.3% of its receiving one (async-profiler).
     */
    @Override
    public final void writePending()
    {
        if (seqNumsPending)
        {
            seqNumsPending = false;
            writeSeqNumSlot();
        }
    }

    /** Indexes a record {@code storeSent} wrote, which makes this duty cycle's flush take no step ahead. */
    final void indexSent(final int seqNum, final long position)
    {
        index.put(seqNum, position);
        storedSinceFlush = true;
    }

    /**
     * A small step of work the stores to come would otherwise do themselves, on an idle duty cycle's
     * {@link #flush}: nothing here; the mapped store prepares its next window.
     */
    void prepareAhead()
    {
    }

    /** Forces what the sync policy still owes, then releases the files. Later calls do nothing. */
    @Override
    public final void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            writePending();
            if (sync.isDirty())
            {
                forceAll();
                forced();
            }
        }
        finally
        {
            try
            {
                release();
            }
            finally
            {
                index.close();
            }
        }
    }

    /** Forces this store made to the device since it was opened (recovery's own force not counted). */
    public final long forceCount()
    {
        return forces;
    }

    /** Every force of records or sequence numbers ends here, after the device has taken the bytes. */
    final void forced()
    {
        forces++;
        forceListener.onForced();
    }

    @Override
    public String toString()
    {
        return name;
    }

    final void checkOpen()
    {
        StoreChecks.checkOpen(closed, name);
    }

    /**
     * Recovery's last step. A record at or above the next sender seqNum means the process died
     * between storing a message and advancing the counter; moving the counter past it means a
     * message that may have gone out is never sent again under the same number (if it did not go
     * out, the counterparty asks for it and gets it from the store).
     */
    final void advancePastStoredMessages()
    {
        if (index.highest() >= seqNums.nextSender())
        {
            nextSenderSeqNum(index.highest() + 1);
        }
    }

    /**
     * Recovery's scan: indexes the intact records from {@code from} on, read through {@code reader}, and
     * returns where the first one that does not validate (or the file) begins: the end of the data.
     */
    final long indexRecords(final FileRecordReader reader, final long from, final long fileLength)
    {
        long position = from;
        int recordLength;
        while ((recordLength = reader.load(position, fileLength)) != RecordDescriptor.INVALID)
        {
            index.put(RecordDescriptor.seqNum(reader.window(), reader.offsetOf(position)), position);
            position += recordLength;
        }
        return position;
    }

    /** Scans the files, rebuilds the index and cuts off whatever follows the last intact record. */
    abstract void recover();

    /**
     * The sequence numbers changed: written by the next {@link #writePending} under the none and interval policies,
     * written and forced before this returns under every-message.
     */
    final void writeSeqNums()
    {
        if (!sync.onWrite())
        {
            seqNumsPending = true;
            return;
        }
        writeAndForceSeqNums();
        sync.onForced(0);
    }

    /** Writes the current numbers and forces them whatever the policy: reset's last step. */
    final void writeAndForceSeqNums()
    {
        seqNumsPending = false;
        forceSeqNumSlot(writeSeqNumSlot());
        forced();
    }

    /** Writes the current sequence numbers in the next slot; returns the slot's offset. */
    abstract int writeSeqNumSlot();

    /** Forces the slot at {@code slotOffset} to the device. */
    abstract void forceSeqNumSlot(int slotOffset);

    /** @return where the intact record at {@code position} starts in {@link #recordBuffer()}, or -1. */
    abstract int loadRecord(long position);

    /** The buffer holding the record last loaded, valid until the next load or store. */
    abstract DirectBuffer recordBuffer();

    /** Forces both records and sequence numbers to the device. */
    abstract void forceAll();

    /** Closes or unmaps the files. */
    abstract void release();
}
