package dev.servebench.client;

import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * The requests of one load point in dispatch order, prepared when asked for. A million pre-serialised
 * bodies of 1,024-token prompts would need gigabytes; a source keeps only what it needs to build one.
 */
public interface RequestSource {

    int size();

    /** Request {@code index} (0 <= index < size), ready to send; safe to call from any thread. */
    PreparedRequest prepare(int index);

    /** Whether {@link #prepare} only looks a request up (then nobody needs to prepare ahead). */
    default boolean prepared() {
        return false;
    }

    /** Requests prepared before the run. */
    static RequestSource of(List<PreparedRequest> requests) {
        List<PreparedRequest> copy = List.copyOf(requests);
        return new RequestSource() {
            @Override
            public int size() {
                return copy.size();
            }

            @Override
            public PreparedRequest prepare(int index) {
                return copy.get(index);
            }

            @Override
            public boolean prepared() {
                return true;
            }
        };
    }

    /** {@code size} requests built by {@code build} when asked for. */
    static RequestSource lazy(int size, IntFunction<PreparedRequest> build) {
        Objects.requireNonNull(build, "build");
        if (size < 0) {
            throw new IllegalArgumentException("size (" + size + ") must be >= 0");
        }
        return new RequestSource() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public PreparedRequest prepare(int index) {
                Objects.checkIndex(index, size);
                PreparedRequest request = build.apply(index);
                if (request.index() != index) {
                    throw new IllegalStateException("request " + index + " was built with index " + request.index());
                }
                return request;
            }
        };
    }
}
