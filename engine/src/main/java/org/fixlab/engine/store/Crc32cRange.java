package org.fixlab.engine.store;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * CRC32C of a byte range of an {@link UnsafeBuffer} that wraps a whole direct or mapped
 * {@link ByteBuffer}, without allocating.
 *
 * <p>{@link CRC32C#update(ByteBuffer)} is the JDK's hardware-accelerated path and reads direct memory
 * in place; it only needs the range expressed as the ByteBuffer's position and limit, which this class
 * owns (the stores never use those fields for anything else).
 */
final class Crc32cRange
{
    private final CRC32C crc = new CRC32C();

    /** @param buffer must wrap a ByteBuffer from index 0, as every store buffer does. */
    int compute(final UnsafeBuffer buffer, final int from, final int to)
    {
        final ByteBuffer bytes = buffer.byteBuffer();
        bytes.limit(to);
        bytes.position(from);
        crc.reset();
        crc.update(bytes);
        return (int)crc.getValue();
    }
}
