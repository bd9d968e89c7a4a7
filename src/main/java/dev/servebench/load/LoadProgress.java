package dev.servebench.load;

/** Progress of a load point, reported after each finished request (from network threads). */
@FunctionalInterface
public interface LoadProgress {
    void update(int finished, int failed, int total);

    LoadProgress NONE = (finished, failed, total) -> {};
}
