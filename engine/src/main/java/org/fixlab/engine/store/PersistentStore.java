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

    /** Persists the current sequence numbers in the next slot, forcing it if the policy says so. */
    abstract void writeSeqNums();

    /** @return where the intact record at {@code position} starts in {@link #recordBuffer()}, or -1. */
    abstract int loadRecord(long position);

    /** The buffer holding the record last loaded, valid until the next load or store. */
    abstract DirectBuffer recordBuffer();

    /** Forces both records and sequence numbers to the device. */
    abstract void forceAll();

    /** Closes or unmaps the files. */
    abstract void release();
}
