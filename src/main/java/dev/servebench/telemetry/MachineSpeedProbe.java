package dev.servebench.telemetry;

import java.util.SplittableRandom;

/**
 * A fixed piece of single-threaded work — multiply-adds streamed over 16 MB of floats, past the per-core
 * caches as an engine's weights are — timed between a run's repeats while the server is idle. The work never
 * changes, so its time changes only with the machine: a shared runner's neighbours, clock or memory
 * bandwidth. The gate compares these samples with the baseline's before it compares the server's numbers
 * (docs/gate.md, "Machine drift"), because a run on a 15 % faster machine hides a 15 % slower server.
 */
public final class MachineSpeedProbe {

    /** Per-repeat key of the samples in measurements.json (beside the metrics), read by baselines and the gate. */
    public static final String SAMPLE_KEY = "machine_probe_ms";

    /** Floats per array: two arrays of 8 MB. */
    static final int LENGTH = 1 << 21;
    /** Passes per sample: about 80 ms on the 2-core build machine. */
    static final int PASSES = 48;
    private static final int WARMUP_SAMPLES = 8;

    private final float[] left = new float[LENGTH];
    private final float[] right = new float[LENGTH];
    /** Read after every sample so the JIT cannot drop the work. */
    private volatile float sink;

    public MachineSpeedProbe() {
        SplittableRandom random = new SplittableRandom(20261202L);
        for (int i = 0; i < LENGTH; i++) {
            left[i] = (float) random.nextDouble(-1, 1);
            right[i] = (float) random.nextDouble(-1, 1);
        }
        for (int i = 0; i < WARMUP_SAMPLES; i++) {
            sampleMillis();
        }
    }

    /** Milliseconds the fixed work took now; lower is a faster machine. */
    public double sampleMillis() {
        long start = System.nanoTime();
        float total = 0;
        for (int pass = 0; pass < PASSES; pass++) {
            total += pass(pass);
        }
        double millis = (System.nanoTime() - start) / 1e6;
        sink = total;
        return millis;
    }

    private float pass(int pass) {
        float a = 0;
        float b = 0;
        float c = 0;
        float d = 0;
        float scale = 1f + pass * 1e-3f;
        for (int i = 0; i < LENGTH; i += 4) {
            a += left[i] * right[i] * scale;
            b += left[i + 1] * right[i + 1] * scale;
            c += left[i + 2] * right[i + 2] * scale;
            d += left[i + 3] * right[i + 3] * scale;
        }
        return a + b + c + d;
    }
}
