package dev.servebench.bench;

/** A benchmark cannot run (a missing JDK tool, a server that does not start, bad options): one line for the user. */
final class BenchmarkException extends RuntimeException {

    BenchmarkException(String message) {
        super(message);
    }
}
