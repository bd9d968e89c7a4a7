package dev.servebench.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only scratch file, read back through one memory mapping (a {@link MemorySegment}, so more than
 * 2 GB is fine). The file is created on the first append and unlinked right after it is opened: it has no
 * name that a crash or an exception could leave behind, and the disk space returns when the channel closes
 * (on {@link #close()}, or when a forgotten channel is collected). Where unlinking an open file fails
 * (Windows), {@code DELETE_ON_CLOSE} removes it on close instead. Not thread-safe.
 */
final class SpillFile implements AutoCloseable {

    private final Path directory;
    private FileChannel channel;
    private long written;
    private Arena arena;
    private MemorySegment mapped = MemorySegment.NULL;
    private boolean closed;

    SpillFile(Path directory) {
        this.directory = directory;
    }

    /** Appends the buffer's remaining bytes. */
    void append(ByteBuffer bytes) {
        if (closed) {
            throw new IllegalStateException("spill file in " + directory + " is closed");
        }
        try {
            if (channel == null) {
                open();
            }
            while (bytes.hasRemaining()) {
                written += channel.write(bytes, written);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("spilling " + bytes.remaining() + " bytes of request events to a"
                    + " temporary file in " + directory + " failed (is the disk full? --spill-dir / java.io.tmpdir)", e);
        }
    }

    private void open() throws IOException {
        Path file = Files.createTempFile(directory, "servebench-events-", ".spill");
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
        try {
            Files.deleteIfExists(file);
        } catch (IOException stillOpenOnThisPlatform) {
            // DELETE_ON_CLOSE removes it when the channel closes
        }
    }

    /** Bytes appended so far. */
    long size() {
        return written;
    }

    /** Everything appended so far, mapped read-only; remapped when the file has grown since the last call. */
    MemorySegment segment() {
        if (mapped.byteSize() < written) {
            try {
                Arena next = Arena.ofShared();
                MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, written, next);
                if (arena != null) {
                    arena.close();
                }
                arena = next;
                mapped = segment;
            } catch (IOException e) {
                throw new UncheckedIOException("mapping " + written + " spilled bytes in " + directory + " failed", e);
            }
        }
        return mapped;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        mapped = MemorySegment.NULL;
        if (arena != null) {
            arena.close();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("closing the spill file in " + directory + " failed", e);
            }
        }
    }
}
