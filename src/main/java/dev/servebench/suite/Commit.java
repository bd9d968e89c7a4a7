package dev.servebench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The servebench commit a run measured with, when the working directory is a git checkout. */
final class Commit {

    private Commit() {
    }

    static Optional<String> current() {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
            if (!git.waitFor(5, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return Optional.empty();
            }
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return git.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
