package dev.servebench.kernels.bench;

import dev.servebench.kernels.allreduce.AllreduceAlgorithm;
import dev.servebench.kernels.allreduce.AllreduceWorkspace;
import dev.servebench.kernels.allreduce.JavaAllreduce;
import dev.servebench.kernels.allreduce.NativeAllreduce;
import dev.servebench.kernels.results.AllreduceRepeats;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * bf16 sum-allreduce of {@code bytes} per rank over {@code ranks} rank threads sharing memory. One
 * invocation runs {@link AllreduceRepeats#forBytes} collectives back to back (the figures divide by it),
 * so small-message latency is not dominated by starting the rank threads. In-place runs keep summing
 * into the same buffers, as nccl-tests does; the values' growth does not change the work.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class AllreduceBenchmark {

    @Param({"native", "java"})
    public String backend;

    @Param({"2"})
    public int ranks;

    @Param({"12288", "4194304"})
    public long bytes;

    @Param({"auto"})
    public String algorithm;

    @Param({"out", "in"})
    public String placement;

    private Arena arena;
    private MemorySegment[] inputs;
    private MemorySegment[] outputs;
    private AllreduceAlgorithm chosen;
    private int repeats;
    private NativeAllreduce kernels;
    private AllreduceWorkspace workspace;
    private JavaAllreduce java;

    @Setup(Level.Trial)
    public void setUp() {
        chosen = AllreduceAlgorithm.parse(algorithm);
        repeats = AllreduceRepeats.forBytes(bytes);
        arena = Arena.ofShared();
        SplittableRandom random = new SplittableRandom(ranks * 31L + bytes);
        inputs = new MemorySegment[ranks];
        outputs = new MemorySegment[ranks];
        for (int r = 0; r < ranks; r++) {
            inputs[r] = arena.allocate(bytes, 64);
            for (long i = 0; i < bytes; i += 2) {
                // bf16 values in [-1, 1): sign, exponent 0x3F/0x3E region, random mantissa.
                inputs[r].set(ValueLayout.JAVA_SHORT_UNALIGNED, i,
                        (short) (0x3E00 | (random.nextInt(0x100)) | (random.nextBoolean() ? 0x8000 : 0)));
            }
            switch (placement) {
                case "in" -> outputs[r] = inputs[r];
                case "out" -> {
                    outputs[r] = arena.allocate(bytes, 64);
                    outputs[r].fill((byte) 0);
                }
                default -> throw new IllegalArgumentException("placement " + placement + "; expected in or out");
            }
        }
        switch (backend) {
            case "native" -> {
                kernels = new NativeAllreduce(BenchLibrary.loadInFork());
                workspace = new AllreduceWorkspace(kernels, ranks, bytes);
            }
            case "java" -> java = new JavaAllreduce(ranks, bytes);
            default -> throw new IllegalArgumentException("backend " + backend + "; expected native or java");
        }
    }

    @Benchmark
    public MemorySegment allreduce() {
        long count = bytes / 2;
        if (kernels != null) {
            kernels.run(workspace, chosen, inputs, outputs, count, repeats);
        } else {
            java.run(inputs, outputs, count, chosen, repeats);
        }
        return outputs[0];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (workspace != null) {
            workspace.close();
        }
        if (java != null) {
            java.close();
        }
        arena.close();
    }
}
