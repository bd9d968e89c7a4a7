package dev.servebench.load;

import dev.servebench.record.RequestRecord;
import dev.servebench.workload.Tokenizer;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Counts each successful request's generated text with the client tokenizer (SGLang's
 * {@code len(tokenizer.encode(generated_text, add_special_tokens=False))}) on a worker thread of its own, never
 * on an event loop: the driver frees the request's concurrency slot the moment the response ends, and the
 * record, count included, reaches the store and the records file once counted.
 *
 * <p>Why one thread and not the records/summary stage: the text must be dropped when its request ends (a
 * million requests' texts do not fit a 1 GiB heap), so it is counted right away; one worker keeps the client's
 * own CPU share small, and a count is needed only by the summary, never by a timestamp. Bounded: texts waiting
 * for it hold at most {@value #MAX_WAITING_CHARS} characters (each request counting at least
 * {@value #JOB_CHARS}); past that the event loop that ends a request waits for room, as it does when the
 * records writer falls behind, and the wait shows up as dispatch lag.
 */
final class OutputRetokenizer implements AutoCloseable {

    /** About 64 MiB of UTF-16 waiting at most. */
    static final int MAX_WAITING_CHARS = 32 << 20;
    /** What one waiting request is charged beyond its text: records and queue nodes are not free. */
    static final int JOB_CHARS = 256;

    private record Job(RequestRecord record, String text, int weight, Consumer<RequestRecord> then) {}

    private final Tokenizer tokenizer;
    private final Consumer<Throwable> internalErrors;
    private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final Semaphore room = new Semaphore(MAX_WAITING_CHARS);
    private final Thread worker;
    private volatile boolean closed;

    /** @param internalErrors told when counting failed: the run stops, its summary would lack the count */
    OutputRetokenizer(Tokenizer tokenizer, Consumer<Throwable> internalErrors) {
        this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
        this.internalErrors = Objects.requireNonNull(internalErrors, "internalErrors");
        this.worker = Thread.ofPlatform().name("servebench-retokenizer").daemon(true).start(this::work);
    }

    /**
     * Queues {@code text} for counting; {@code then} receives {@code record} with the count, on the worker.
     * Waits while the texts already waiting fill the bound. After {@link #close} nothing is counted.
     */
    void submit(RequestRecord record, String text, Consumer<RequestRecord> then) {
        // A single text beyond the bound waits for an empty queue instead of forever.
        int weight = (int) Math.min((long) text.length() + JOB_CHARS, MAX_WAITING_CHARS);
        room.acquireUninterruptibly(weight);
        if (closed) {
            room.release(weight);
            return;
        }
        queue.add(new Job(record, text, weight, then));
    }

    private void work() {
        while (!closed) {
            Job job;
            try {
                job = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                int tokens = tokenizer.countText(job.text());
                room.release(job.weight());
                job.then().accept(job.record().withRetokenizedOutputLen(tokens));
            } catch (Throwable t) {
                room.release(job.weight());
                internalErrors.accept(t);
            }
        }
    }

    /** Texts waiting to be counted (tests). */
    int waiting() {
        return queue.size();
    }

    /** Stops counting: texts still waiting are dropped, an event loop waiting for room is let go. */
    @Override
    public void close() {
        closed = true;
        worker.interrupt();
        queue.clear();
        room.release(MAX_WAITING_CHARS);
    }
}
