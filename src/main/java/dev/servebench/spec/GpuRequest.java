package dev.servebench.spec;

/** GPUs handed to a container: none, all the host has, or a count (docker's {@code --gpus}). */
public sealed interface GpuRequest permits GpuRequest.None, GpuRequest.All, GpuRequest.Count {

    record None() implements GpuRequest {
    }

    record All() implements GpuRequest {
    }

    record Count(int gpus) implements GpuRequest {
        public Count {
            if (gpus < 1) {
                throw new IllegalArgumentException("gpus (" + gpus + ") must be >= 1");
            }
        }
    }
}
