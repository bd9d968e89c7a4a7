package dev.servebench.kernels.bench;

import dev.servebench.kernels.NativeCopy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * The bandwidth baseline: {@code sb_copy} (glibc memcpy split over {@code threads} threads) of
 * {@code bytes} in all. Dequant is judged against the largest copy, allreduce against a copy of
 * S bytes per rank thread. Buffers are touched in setup so page faults are not measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MemcpyBenchmark {

    @Param({"268435456"})
    public long bytes;

    @Param({"2"})
    public int threads;

    private Arena arena;
    private MemorySegment source;
    private MemorySegment destination;
    private NativeCopy copy;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        source = arena.allocate(bytes, 64);
        destination = arena.allocate(bytes, 64);
        source.fill((byte) 0x5A);
        destination.fill((byte) 0);
        copy = new NativeCopy(BenchLibrary.loadInFork());
    }

    @Benchmark
    public void copy() {
        copy.copy(destination, source, threads);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }
}
