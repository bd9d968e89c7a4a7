package dev.servebench.record;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Streams records to a JSONL file as requests finish, serialising on its own thread so the network
 * threads never wait for the disk. Each line is flushed within a short interval, so an interrupted run
 * keeps every record that was completed up to then.
 */
public final class RecordSink implements AutoCloseable {

    private static final Object END_OF_RECORDS = new Object();

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(65_536);
    private final Thread writer;
    private final Path file;
    private final Thread shutdownHook;
    private volatile IOException failure;

    public RecordSink(Path file) throws IOException {
        this.file = file;
        BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        this.writer = Thread.ofPlatform().name("servebench-records").daemon(true).start(() -> drain(out));
        // Ctrl-C during a run: write out what was queued, so the file keeps every finished request.
        this.shutdownHook = Thread.ofPlatform().unstarted(this::closeQuietly);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private void closeQuietly() {
        try {
            queue.offer(END_OF_RECORDS);
            writer.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public Path file() {
        return file;
    }

    /** Queues a record; blocks only if the writer is 65,536 records behind. */
    public void accept(RequestRecord record) {
        try {
            queue.put(record);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while queueing a record", e);
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
                out.write(RecordJsonl.toLine((RequestRecord) next));
                out.write('\n');
            }
        } catch (IOException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
            queue.put(END_OF_RECORDS);
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while closing " + file, e);
        }
        if (failure != null) {
            throw new IOException("writing records to " + file + " failed: " + failure.getMessage(), failure);
        }
    }
}
