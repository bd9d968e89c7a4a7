package dev.servebench.testserver;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Sends a {@link Rendering} op by op, each at its absolute due time (start + due), on the channel's event loop,
 * woken precisely with the help of {@link PacingSelectStrategy}.
 * Due times are never derived from the previous emission, so a late wake-up does not shift later chunks.
 * Each op is one retained slice written and flushed; the emission time of a token chunk is read right after.
 */
final class PacedResponse implements Runnable {

    private final ChannelHandlerContext ctx;
    private final Rendering rendering;
    private final GenerationWork work;
    private final boolean record;
    private final Consumer<EmissionLog> sink;
    private final Runnable onDone;
    private final long[] chunkNanos;
    private final int limit;
    private int next;
    private int chunksSent;
    private boolean finished;

    /** {@code onDone} runs on the event loop once the connection may carry the next response. */
    PacedResponse(ChannelHandlerContext ctx, Rendering rendering, GenerationWork work, boolean record,
                  Consumer<EmissionLog> sink, Runnable onDone) {
        this.ctx = ctx;
        this.rendering = rendering;
        this.work = work;
        this.record = record;
        this.sink = sink;
        this.onDone = onDone;
        this.chunkNanos = new long[rendering.chunkCount()];
        this.limit = rendering.stopAfterOps() >= 0 ? rendering.stopAfterOps() : rendering.opCount();
    }

    @Override
    public void run() {
        if (finished) {
            return;
        }
        long now = System.nanoTime();
        while (next < limit) {
            long wait = work.startNanos() + rendering.dueNanos(next) - now;
            if (wait > 0) {
                sleep(now + wait, wait);
                return;
            }
            int from = rendering.opStart(next);
            ctx.writeAndFlush(rendering.wire().retainedSlice(from, rendering.opEnd(next) - from));
            now = System.nanoTime();
            int chunk = rendering.chunkCompletedBy(next);
            if (chunk >= 0) {
                chunkNanos[chunk] = now;
                chunksSent = chunk + 1;
            }
            next++;
            if (finished) {
                return; // the write failed and closed the channel
            }
        }
        if (rendering.stopAfterOps() < 0) {
            finish(work.plan().fault() instanceof Fault.HttpError ? EmissionLog.Outcome.HTTP_ERROR
                    : EmissionLog.Outcome.COMPLETED);
            onDone.run();
            return;
        }
        switch (work.plan().fault()) {
            case Fault.ResetAfter r -> {
                finish(EmissionLog.Outcome.RESET);
                // Linger 0 turns close() into an RST instead of an orderly FIN.
                ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                ctx.channel().close();
            }
            // Nothing more is sent and the connection stays open; later requests on it wait forever.
            case Fault.StallAfter s -> finish(EmissionLog.Outcome.STALLED);
            case Fault.None n -> throw new IllegalStateException("stop point without a stopping fault");
            case Fault.HttpError h -> throw new IllegalStateException("stop point without a stopping fault");
            case Fault.InvalidJsonAt i -> throw new IllegalStateException("stop point without a stopping fault");
            case Fault.NoDone n -> throw new IllegalStateException("stop point without a stopping fault");
            case Fault.InStreamError e -> throw new IllegalStateException("stop point without a stopping fault");
        }
    }

    /**
     * Wakes this response at {@code due}. With a {@link PacingSelectStrategy} the loop first sleeps (coarsely)
     * until the busy-poll window opens and is then woken by its polling exactly on time.
     */
    private void sleep(long due, long wait) {
        PacingSelectStrategy pacing = PacingSelectStrategy.current();
        long delay = wait;
        if (pacing != null) {
            pacing.expect(due);
            if (wait > pacing.spinNanos()) {
                delay = wait - pacing.spinNanos();
            }
        }
        ctx.executor().schedule(this, delay, TimeUnit.NANOSECONDS);
    }

    /** The connection closed underneath us; a wake-up still scheduled finds us finished. */
    void abort() {
        finish(EmissionLog.Outcome.CLOSED_EARLY);
    }

    private void finish(EmissionLog.Outcome outcome) {
        if (finished) {
            return;
        }
        finished = true;
        if (record) {
            int[] tokens = rendering.chunkTokens();
            sink.accept(new EmissionLog(work.index(), work.request().endpoint(), work.arrivalNanos(),
                    work.startNanos(), work.plan().ttftNanos(), work.plan().gapNanos(),
                    Arrays.copyOf(chunkNanos, chunksSent), Arrays.copyOf(tokens, chunksSent), tokens.length,
                    outcome, false, work.request().promptTokens()));
        }
        rendering.wire().release();
    }
}
