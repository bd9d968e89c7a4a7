package dev.servebench.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stops a process and everything it started. Inference servers fork workers (SGLang's schedulers and
 * detokenizer, vLLM's engine core, one process per GPU); killing only the parent would leave them holding
 * GPU memory and the port. Descendants are listed before the parent is asked to stop, because once it is
 * gone its orphans are re-parented and no longer show up as its descendants.
 */
final class ProcessTree {

    /** How long forcibly killed processes get to disappear before we stop waiting. */
    static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private ProcessTree() {}

    /**
     * Asks the root to stop (SIGTERM) and gives it {@code grace} to stop its own workers; whatever it leaves
     * behind is asked too for the rest of the grace period, then everything still alive is killed (SIGKILL).
     *
     * @return the processes still alive after all that (normally none)
     */
    static List<ProcessHandle> terminate(ProcessHandle root, Duration grace) {
        Set<ProcessHandle> tree = new LinkedHashSet<>();
        tree.add(root);
        root.descendants().forEach(tree::add);
        long deadline = System.nanoTime() + grace.toNanos();
        root.destroy();
        awaitExit(Set.of(root), deadline);
        if (root.isAlive()) {
            root.descendants().forEach(tree::add);   // started during the grace period
        }
        // Orphans of a parent that did not stop its workers (a shell wrapper), or workers of a parent that hangs.
        for (ProcessHandle process : tree) {
            if (process.isAlive() && !process.equals(root)) {
                process.destroy();
            }
        }
        awaitExit(tree, deadline);
        for (ProcessHandle process : tree) {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
        }
        awaitExit(tree, System.nanoTime() + KILL_WAIT.toNanos());
        List<ProcessHandle> survivors = new ArrayList<>();
        for (ProcessHandle process : tree) {
            if (process.isAlive()) {
                survivors.add(process);
            }
        }
        return survivors;
    }

    private static void awaitExit(Set<ProcessHandle> processes, long deadlineNanos) {
        for (ProcessHandle process : processes) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            try {
                process.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return;
            } catch (ExecutionException e) {
                // onExit does not fail; nothing to wait for
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
