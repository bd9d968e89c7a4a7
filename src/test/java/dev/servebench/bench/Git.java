package dev.servebench.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** The checked-out commit, so a result names the version it measured. */
final class Git {

    private Git() {
    }

    /** {@code <short hash>} plus {@code -dirty} with uncommitted changes; "unknown" without git. */
    static String describe() {
        String hash = output("git", "rev-parse", "--short", "HEAD");
        if (hash.isEmpty()) {
            return "unknown";
        }
        return output("git", "status", "--porcelain", "--untracked-files=no").isEmpty() ? hash : hash + "-dirty";
    }

    private static String output(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
