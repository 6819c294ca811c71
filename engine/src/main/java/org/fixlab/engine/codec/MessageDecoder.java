package org.fixlab.engine.codec;

import static org.agrona.UnsafeAccess.UNSAFE;

import org.agrona.DirectBuffer;

/**
 * Flyweight decoder over one complete FIX message in a buffer. {@link #decode} records where each
 * field's tag and value are; accessors read the values in place. Nothing is allocated per message:
 * the field tables are sized once, by the maximum number of fields a message may have.
 *
 * <p>A data field (RawData, XmlData, Signature, the Encoded* text fields: see {@link DataFields}) after its
 * length field takes at least that many bytes, so its value may contain SOH.
 *
 * <p>The view is only valid until the buffer is reused: callbacks that receive it must copy what
 * they want to keep.
 */
public final class MessageDecoder
{
    /** The message was split into fields. Semantic checks (required tags, order, values) come later. */
    public static final int OK = 0;
    /** The bytes are not tag=value pairs separated by SOH (a tag that is not a number, no '='). */
    public static final int GARBLED = 1;
    /** More fields than the configured maximum. */
    public static final int TOO_MANY_FIELDS = 2;

    private static final int SMALL_TAGS = 128;

    /** Marks a tag that is syntactically a number but does not fit an int, so it is reported as invalid. */
    public static final int OVERSIZED_TAG = Integer.MIN_VALUE;

    private final int[] tags;
    /**
     * First index of each small tag (the whole standard header lives below 128) in the low half, the decode
     * that found it in the high half (its stamp): lookups of header fields cost O(1), a new message costs no
     * clearing, and recording a tag is one load and one store.
     */
    private final long[] firstIndexOfSmallTag = new long[SMALL_TAGS];
    private int stamp;
    /** Each field's value: its offset in the high half, its length in the low half (one store per field, not two). */
    private final long[] values;
    private DirectBuffer buffer;
    private int offset;
    private int length;
    private int fieldCount;
    /** Per data field pair: the length its length field announced, valid where the stamp is this decode's. */
    private final int[] announcedLength = new int[DataFields.PAIRS];
    private final int[] lengthStamp = new int[DataFields.PAIRS];
    /** SendingTime and OrigSendingTime of one session's messages share their second: it is parsed once a second. */
    private final TimestampParser timestamps = new TimestampParser();

    public MessageDecoder(final int maxFields)
    {
        tags = new int[maxFields];
        values = new long[maxFields];
    }

    public int decode(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.fieldCount = 0;
        nextStamp();
        if (length <= 0)
        {
            return GARBLED;
        }
        // One bounds check for the whole message, then raw reads: the per-byte checks of
        // DirectBuffer.getByte were most of the cost of splitting a message.
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long base = buffer.addressOffset();
        final int end = offset + length;
        if (UNSAFE.getByte(array, base + end - 1) == Fix.SOH && end <= buffer.capacity() - Long.BYTES &&
            splitEndingInSoh(array, base, end))
        {
            return OK;
        }
        fieldCount = 0;
        nextStamp(); // forgets what the attempt above indexed
        return split(array, base, end);
    }

    private void nextStamp()
    {
        if (++stamp == 0)
        {
            java.util.Arrays.fill(firstIndexOfSmallTag, 0);
            java.util.Arrays.fill(lengthStamp, 0);
            stamp = 1;
        }
    }

    /**
     * The common message, which ends with SOH and has at least eight bytes of the buffer after it. That SOH stops
     * every search before the end: a tag stops at it as at any byte that is not a digit, and a value's end is
     * searched for a word at a time without a check against the end (words past it stay in the buffer). That is a
     * sixth of the cost of a message gone. False for anything unusual (a sign, a tag of ten digits, a stray byte, too
     * many fields), which {@link #split} then judges byte by byte.
     *
     * <p>Why field by field, with the tag's bytes read at fixed places: each branch (is the second byte '=', the
     * third?) follows the message's shape, which repeats from message to message, so the processor predicts it and runs
     * ahead, and the only chain from one field to the next is the SOH search (which ends in a predicted branch too, see
     * {@link #nextSoh}). The value then starts at the field's start plus a constant; a loop that counted the digits one
     * by one put an add per digit on that chain (make codec-ab against it, 3 JVMs: 91 -> 82 ns a throughput order, 91
     * -> 82 ns an order of a stream). Two splits without the branches were measured slower, against a byte loop in the
     * same JVMs (ns per throughput order and per order of a stream): the tag and '=' read from one word and converted
     * by multiplications, 134 and 193 against 90 and 93 (each field's start waits on arithmetic instead of a predicted
     * branch); every SOH of the message found first, a word or a 64-byte block at a time, then the tags, 112-129 and
     * 115-129 (more instructions than they save).
     *
     * <p>The count of fields and the stamp are locals, and the count is stored once at the end: {@link #recordSplit}
     * writes through Unsafe, after which the compiled code reloads any field it reads, so a count kept in its field
     * put a store and a reload on every field's way. make codec-ab puts it 1% slower, a split alone; the receiver of
     * the throughput stream took 8% more orders a second (4.99M -> 5.38M, fixlab-engine jar A/B, five pairs of runs,
     * faster in each). The tables in locals too changed nothing there (faster in 2 of 5). Judge a change here by
     * the stream, not by the split alone: the two have disagreed both ways.
     */
    private boolean splitEndingInSoh(final byte[] array, final long base, final int end)
    {
        int position = offset;
        int count = 0;
        final int stampNow = stamp;
        while (position < end)
        {
            // tags of one to three digits, read at fixed places: the value's start is the field's start plus a
            // constant on each branch, where counting digits one by one put an add per digit on the chain
            final long at = base + position;
            final int d0 = UNSAFE.getByte(array, at) - '0';
            final byte b1 = UNSAFE.getByte(array, at + 1);
            if ((d0 & 0xFF) > 9)
            {
                return false;
            }
            int tag;
            int valueStart;
            if (b1 == Fix.EQUALS)
            {
                tag = d0;
                valueStart = position + 2;
            }
            else
            {
                final int d1 = b1 - '0';
                final byte b2 = UNSAFE.getByte(array, at + 2);
                if ((d1 & 0xFF) > 9)
                {
                    return false;
                }
                if (b2 == Fix.EQUALS)
                {
                    tag = d0 * 10 + d1;
                    valueStart = position + 3;
                }
                else
                {
                    final int d2 = b2 - '0';
                    if ((d2 & 0xFF) > 9)
                    {
                        return false;
                    }
                    final long rest = restOfTag((d0 * 10 + d1) * 10 + d2, array, base, position + 3);
                    if (rest < 0)
                    {
                        return false;
                    }
                    tag = (int)(rest >>> 32);
                    valueStart = (int)rest;
                }
            }
            if (count == tags.length)
            {
                return false;
            }
            final int pair = DataFields.pairOf(tag);
            position = pair < 0
                ? nextSoh(array, base, valueStart)
                : endOfLengthOrDataField(array, base, tag, pair, valueStart, end);
            if (position < 0)
            {
                return false;
            }
            recordSplit(count++, stampNow, tag, valueStart, position);
            position++; // SOH
        }
        fieldCount = count;
        return true;
    }

    /**
     * The rest of a tag of three digits or more whose fourth byte is at {@code from}, up to the '=' that ends nine
     * digits at most: the tag in the high half, where its value starts in the low half; -1 if a byte before the '=' is
     * not a digit or the tag is longer.
     */
    private static long restOfTag(final int firstThree, final byte[] array, final long base, final int from)
    {
        int tag = firstThree;
        for (int position = from; position < from + 7; position++)
        {
            final byte b = UNSAFE.getByte(array, base + position);
            if (b == Fix.EQUALS)
            {
                return (long)tag << 32 | position + 1;
            }
            final int digit = b - '0';
            if ((digit & 0xFF) > 9)
            {
                return -1;
            }
            tag = tag * 10 + digit;
        }
        return -1;
    }

    /**
     * {@link #record} of field {@code index} the common split found ({@code splitStamp}: the split's copy of
     * {@link #stamp}): its tag is at most nine digits, so never negative, and the split checked there is room for it,
     * so the tables are written without the bounds checks of array stores (a load, a compare and a branch each, three
     * a field). That was 5% of a split in make codec-ab, but 13% more orders a second in the throughput stream, whose
     * receiver runs much else between two splits (fixlab-engine jar A/B, six pairs of runs, faster in each).
     */
    private void recordSplit(final int index, final int splitStamp, final int tag, final int valueStart, final int valueEnd)
    {
        UNSAFE.putInt(tags, INT_ARRAY_BASE + ((long)index << 2), tag);
        if (tag < SMALL_TAGS)
        {
            final long at = LONG_ARRAY_BASE + ((long)tag << 3);
            if ((int)(UNSAFE.getLong(firstIndexOfSmallTag, at) >>> 32) != splitStamp)
            {
                UNSAFE.putLong(firstIndexOfSmallTag, at, (long)splitStamp << 32 | index);
            }
        }
        UNSAFE.putLong(values, LONG_ARRAY_BASE + ((long)index << 3), (long)valueStart << 32 | valueEnd - valueStart);
    }

    private static final long INT_ARRAY_BASE = UNSAFE.arrayBaseOffset(int[].class);
    private static final long LONG_ARRAY_BASE = UNSAFE.arrayBaseOffset(long[].class);

    /** Adds a field; {@code indexed} if it may be found by {@link #indexOf(int)} (a negative tag, "-0" too, may not). */
    private void record(final int tag, final boolean indexed, final int valueStart, final int valueEnd)
    {
        tags[fieldCount] = tag;
        if (indexed && tag >= 0 && tag < SMALL_TAGS && (int)(firstIndexOfSmallTag[tag] >>> 32) != stamp)
        {
            firstIndexOfSmallTag[tag] = (long)stamp << 32 | fieldCount;
        }
        values[fieldCount] = (long)valueStart << 32 | valueEnd - valueStart;
        fieldCount++;
    }

    /** Splits any message byte by byte, and says what is wrong with it if it cannot. */
    private int split(final byte[] array, final long base, final int end)
    {
        int position = offset;
        while (position < end)
        {
            int tag = 0;
            boolean negative = false;
            int tagStart = position;
            byte b;
            // digits only; a tag of ten or more digits wraps here and is replaced below, so the loop counts nothing
            while (position < end && (b = UNSAFE.getByte(array, base + position)) != Fix.EQUALS)
            {
                final int digit = b - '0';
                if ((digit & 0xFF) > 9)
                {
                    // one sign before the first digit makes a negative tag, invalid but still a field; it is looked
                    // for here, off the digits' path, rather than before every tag
                    if (b != '-' || negative || position != tagStart)
                    {
                        return GARBLED;
                    }
                    negative = true;
                    tagStart = ++position;
                    continue;
                }
                tag = tag * 10 + digit;
                position++;
            }
            if (position == end || position == tagStart)
            {
                return GARBLED;
            }
            if (position - tagStart > 9)
            {
                tag = OVERSIZED_TAG;
            }
            position++; // '='
            final int valueStart = position;
            // the pairs' bookkeeping is off the common path
            final int pair = DataFields.pairOf(tag);
            position = pair < 0 || negative
                ? indexOfSoh(array, base, valueStart, end)
                : endOfLengthOrDataField(array, base, tag, pair, valueStart, end);
            if (position < 0)
            {
                return GARBLED;
            }
            if (fieldCount == tags.length)
            {
                return TOO_MANY_FIELDS;
            }
            record(negative && tag != OVERSIZED_TAG ? -tag : tag, !negative, valueStart, position);
            position++; // SOH
        }
        return fieldCount == 0 ? GARBLED : OK;
    }

    /**
     * Where a field of a data pair ends (-1 if it does not). A data field takes at least the bytes its length field
     * announced, SOH included, up to the next SOH, as QuickFIX/J reads it, so a wrong length cannot make the two
     * disagree on where fields end. A length field's value is remembered for its data field: the first one in the
     * message, or since the pair's last data field (the next entry of a repeating group announces its own).
     */
    private int endOfLengthOrDataField(final byte[] array, final long base, final int tag, final int pair, final int valueStart,
        final int end)
    {
        if (DataFields.isDataTag(tag, pair))
        {
            if (lengthStamp[pair] != stamp)
            {
                return indexOfSoh(array, base, valueStart, end); // no length announced: an ordinary field
            }
            lengthStamp[pair] = 0;
            final int announced = announcedLength[pair];
            return announced < end - valueStart ? indexOfSoh(array, base, valueStart + announced, end) : -1;
        }
        final int valueEnd = indexOfSoh(array, base, valueStart, end);
        if (valueEnd >= 0 && lengthStamp[pair] != stamp)
        {
            // a Length is digits only: no sign, so "-0" does not announce an empty data field
            final int announced = valueEnd > valueStart && buffer.getByte(valueStart) != '-'
                ? Ascii.parseInt(buffer, valueStart, valueEnd - valueStart, -1) : -1;
            if (announced >= 0)
            {
                announcedLength[pair] = announced;
                lengthStamp[pair] = stamp;
            }
        }
        return valueEnd;
    }

    private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

    /**
     * The next SOH at or after {@code from}, which the caller knows is there, eight bytes at a time.
     *
     * <p>Why a switch where {@code i + (numberOfTrailingZeros(zeros) >>> 3)} says the same: the next field starts where
     * this SOH is, so the arithmetic put a load, the SOH test and a bit count (some fifteen cycles) between one field's
     * start and the next, and the split waited on that chain field after field. A switch is a branch: the processor
     * predicts which case, as it predicts the tag's branches, from the message's shape (a field's length repeats from
     * message to message), and goes on to the next field at once with a constant added; the load and the test only
     * confirm the guess; a value whose length changes costs a misprediction. make codec-ab against the arithmetic, 3
     * JVMs: the throughput order 99-104 -> 67 ns, an order of a stream of them 103-104 -> 70-72, the order after the L1
     * cache was cleared 150-153 -> 109-114, the round trip's ExecutionReport 184-186 -> 118; make jmh 100 -> 71 ns the
     * order. The throughput stream, fixlab-engine jar A/B, 12 pairs of runs: 4.05-5.56M -> 5.40-6.04M orders a second,
     * faster in 11 (paired +16.9% [+2.7, +33.1]); the closed-loop round trip did not move (p50 -0.3%, within 5%). Where
     * lengths do change, a guess is wrong: orders of ten symbols, six quantities and random prices (decodeMixedOrder)
     * 115-118 -> 89-94 ns, still faster; but messages in which many fields change length from one to the next split
     * slower than with the arithmetic (in messages of 16 fields built for it: two such fields of 1 to 16 bytes 140 ->
     * 125 ns, four 146 -> 158, all sixteen 205 -> 386). Judge a change here with decodeMixedOrder as well as the
     * streams of one order.
     */
    private static int nextSoh(final byte[] array, final long base, final int from)
    {
        for (int i = from; ; i += 8)
        {
            final long zeros = sohBytes(UNSAFE.getLong(array, base + i));
            if (zeros != 0)
            {
                switch (Long.numberOfTrailingZeros(zeros) >>> 3)
                {
                    case 0: return i;
                    case 1: return i + 1;
                    case 2: return i + 2;
                    case 3: return i + 3;
                    case 4: return i + 4;
                    case 5: return i + 5;
                    case 6: return i + 6;
                    default: return i + 7;
                }
            }
        }
    }

    /**
     * The next SOH at or after {@code from} and before {@code end}, eight bytes at a time ({@link #sohBytes}), the
     * last few byte by byte. -1 if there is none.
     */
    private static int indexOfSoh(final byte[] array, final long base, final int from, final int end)
    {
        int i = from;
        while (end - i >= 8)
        {
            final long zeros = sohBytes(UNSAFE.getLong(array, base + i));
            if (zeros != 0)
            {
                return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
            }
            i += 8;
        }
        for (; i < end; i++)
        {
            if (UNSAFE.getByte(array, base + i) == Fix.SOH)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * The high bit of each SOH byte of a word read in native order, the first one exactly (XOR with 0x01 turns SOH
     * into a zero byte, and the classic has-zero-byte test finds the lowest one; bits above it may be wrong). Only the
     * first SOH is wanted here, so this, one operation cheaper than {@link ByteWords#equalBytes}.
     */
    private static long sohBytes(final long nativeWord)
    {
        final long word = (LITTLE_ENDIAN ? nativeWord : Long.reverseBytes(nativeWord)) ^ ByteWords.ONES;
        return (word - ByteWords.ONES) & ~word & ByteWords.HIGH_BITS;
    }

    public DirectBuffer buffer()
    {
        return buffer;
    }

    public int offset()
    {
        return offset;
    }

    public int length()
    {
        return length;
    }

    /** How many fields a message may hold before {@link #decode} answers {@link #TOO_MANY_FIELDS}. */
    public int maxFields()
    {
        return tags.length;
    }

    public int fieldCount()
    {
        return fieldCount;
    }

    public int tag(final int index)
    {
        return tags[index];
    }

    public int valueOffset(final int index)
    {
        return (int)(values[index] >>> 32);
    }

    public int valueLength(final int index)
    {
        return (int)values[index];
    }

    /** Index of the first field with this tag, or -1. */
    public int indexOf(final int tag)
    {
        if (tag >= 0 && tag < SMALL_TAGS)
        {
            final long found = firstIndexOfSmallTag[tag];
            return stamp != 0 && (int)(found >>> 32) == stamp ? (int)found : -1;
        }
        return indexOf(tag, 0);
    }

    public int indexOf(final int tag, final int fromIndex)
    {
        for (int i = fromIndex; i < fieldCount; i++)
        {
            if (tags[i] == tag)
            {
                return i;
            }
        }
        return -1;
    }

    public boolean has(final int tag)
    {
        return indexOf(tag) >= 0;
    }

    /** MsgType(35) when it is a single character (every admin type and most application types), else 0. */
    public char msgTypeChar()
    {
        final int index = fieldCount > 2 && tags[2] == Fix.MSG_TYPE ? 2 : indexOf(Fix.MSG_TYPE);
        return index >= 0 && valueLength(index) == 1 ? (char)buffer.getByte(valueOffset(index)) : 0;
    }

    /** The int value of the first field with this tag; {@code missingOrInvalid} if absent or not an int. */
    public int intValue(final int tag, final int missingOrInvalid)
    {
        final int index = indexOf(tag);
        return index < 0 ? missingOrInvalid : Ascii.parseInt(buffer, valueOffset(index), valueLength(index), missingOrInvalid);
    }

    public long longValue(final int tag, final long missingOrInvalid)
    {
        final int index = indexOf(tag);
        return index < 0 ? missingOrInvalid : Ascii.parseLong(buffer, valueOffset(index), valueLength(index), missingOrInvalid);
    }

    /** A single-character value, or 0 if absent or longer. */
    public char charValue(final int tag)
    {
        final int index = indexOf(tag);
        return index >= 0 && valueLength(index) == 1 ? (char)buffer.getByte(valueOffset(index)) : 0;
    }

    /** True if the field is present with value 'Y'. */
    public boolean isFlagSet(final int tag)
    {
        return charValue(tag) == 'Y';
    }

    /** A UTCTimestamp value in epoch nanoseconds, or {@link UtcTimestamps#INVALID}. */
    public long timestampValue(final int tag)
    {
        final int index = indexOf(tag);
        return index < 0 ? UtcTimestamps.INVALID : timestamps.decode(buffer, valueOffset(index), valueLength(index));
    }

    public boolean valueEquals(final int index, final byte[] expected)
    {
        return Ascii.equals(buffer, valueOffset(index), valueLength(index), expected);
    }

    /** Copies the value into {@code sb} (ASCII); garbage-free when sb has capacity. */
    public StringBuilder appendValue(final int index, final StringBuilder sb)
    {
        for (int i = valueOffset(index), end = i + valueLength(index); i < end; i++)
        {
            sb.append((char)buffer.getByte(i));
        }
        return sb;
    }

    /** The value as a String: allocates, so meant for admin paths, logging and tests. Null if absent. */
    public String stringValue(final int tag)
    {
        final int index = indexOf(tag);
        return index < 0 ? null : buffer.getStringWithoutLengthAscii(valueOffset(index), valueLength(index));
    }

    /** The whole message with SOH shown as '|', for logs and tests. */
    public StringBuilder appendTo(final StringBuilder sb)
    {
        for (int i = offset, end = offset + length; i < end; i++)
        {
            final byte b = buffer.getByte(i);
            sb.append(b == Fix.SOH ? '|' : (char)b);
        }
        return sb;
    }

    @Override
    public String toString()
    {
        return appendTo(new StringBuilder(length)).toString();
    }
}
