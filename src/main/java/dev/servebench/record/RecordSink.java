package dev.servebench.record;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Streams records to a JSONL file as requests finish, serialising on its own thread so the network
 * threads never wait for the disk. Each line is flushed within a short interval, so an interrupted run
 * keeps every record that was completed up to then.
 *
 * <p>When the writer fails (a disk error, or an {@link Error} such as OutOfMemoryError) the failure goes to
 * the {@code onFatal} callback at once, so the run can stop instead of waiting on records that will never
 * be written; further {@link #accept} calls throw; {@link #close} never blocks on the dead writer and cuts
 * the file back to its last complete line, so what was written stays valid JSONL.
 */
public final class RecordSink implements AutoCloseable {

    private static final Object END_OF_RECORDS = new Object();
    /** Records queued for the writer at most: bounds the memory a slow disk can tie up. */
    static final int QUEUE_CAPACITY = 16_384;

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread writer;
    private final Path file;
    private final Thread shutdownHook;
    private final Function<RequestRecord, String> encoder;
    private final Consumer<Throwable> onFatal;
    private volatile Throwable failure;

    public RecordSink(Path file) throws IOException {
        this(file, error -> { });
    }

    /** @param onFatal told once, from the writer thread, when writing failed */
    public RecordSink(Path file, Consumer<Throwable> onFatal) throws IOException {
        this(file, RecordJsonl::toLine, onFatal);
    }

    /** With another line encoder: lets a test inject a failure into the writer thread. */
    public static RecordSink withEncoder(Path file, Function<RequestRecord, String> encoder,
                                         Consumer<Throwable> onFatal) throws IOException {
        return new RecordSink(file, encoder, onFatal);
    }

    private RecordSink(Path file, Function<RequestRecord, String> encoder, Consumer<Throwable> onFatal)
            throws IOException {
        this.file = file;
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.onFatal = Objects.requireNonNull(onFatal, "onFatal");
        BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        this.writer = Thread.ofPlatform().name("servebench-records").daemon(true).start(() -> drain(out));
        // Ctrl-C during a run: write out what was queued, so the file keeps every finished request.
        this.shutdownHook = Thread.ofPlatform().unstarted(this::closeQuietly);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private void closeQuietly() {
        try {
            queue.offer(END_OF_RECORDS, 1, TimeUnit.SECONDS);
            writer.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public Path file() {
        return file;
    }

    /**
     * Queues a record; blocks only while the writer is {@value #QUEUE_CAPACITY} records behind.
     *
     * @throws IllegalStateException when the writer has failed (the record cannot be kept)
     */
    public void accept(RequestRecord record) {
        try {
            while (!queue.offer(record, 100, TimeUnit.MILLISECONDS)) {
                checkWriter();
            }
            checkWriter();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a record", e);
        }
    }

    private void checkWriter() {
        Throwable failed = failure;
        if (failed != null) {
            throw new IllegalStateException("the records writer for " + file + " failed: " + ErrorLine.of(failed), failed);
        }
    }

    private void drain(BufferedWriter out) {
        try (out) {
            while (true) {
                Object next = queue.poll(200, TimeUnit.MILLISECONDS);
                if (next == null) {
                    out.flush();
                    continue;
                }
                if (next == END_OF_RECORDS) {
                    return;
                }
                out.write(encoder.apply((RequestRecord) next));
                out.write('\n');
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
            queue.clear(); // frees the queued records, and the memory an OutOfMemoryError asks for
            try {
                onFatal.accept(t);
            } catch (Throwable ignored) {
                // the failure is kept and reported by accept() and close()
            }
        }
    }

    /** Writes everything queued, then closes the file. */
    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it closes the file
        }
        try {
            while (failure == null && writer.isAlive() && !queue.offer(END_OF_RECORDS, 100, TimeUnit.MILLISECONDS)) {
                // the writer is still draining a full queue
            }
            writer.join(failure == null ? 0 : 2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while closing " + file, e);
        }
        if (failure != null) {
            cutToLastCompleteLine(file);
            throw new IOException("writing records to " + file + " failed: " + ErrorLine.of(failure), failure);
        }
    }

    /** A writer that died mid-line leaves a partial last line; without it the file is valid JSONL again. */
    static void cutToLastCompleteLine(Path file) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long length = raf.length();
            long keep = length;
            while (keep > 0) {
                raf.seek(keep - 1);
                if (raf.read() == '\n') {
                    break;
                }
                keep--;
            }
            if (keep < length) {
                raf.setLength(keep);
            }
        }
    }
}
