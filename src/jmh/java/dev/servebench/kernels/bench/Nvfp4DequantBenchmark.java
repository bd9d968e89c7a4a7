package dev.servebench.kernels.bench;

import dev.servebench.kernels.nvfp4.NativeNvfp4;
import dev.servebench.kernels.nvfp4.Nvfp4Reference;
import dev.servebench.kernels.nvfp4.ScaleLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
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
 * NVFP4 weight dequantisation ({@code packed E2M1 + E4M3 block scales + fp32 global scale → bf16/fp32})
 * of a {@code rows × k} tensor: the native kernel against the scalar Java reference. Codes are uniformly
 * random bytes, scales random finite E4M3 values, so no branch or cache pattern favours either backend.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Nvfp4DequantBenchmark {

    @Param({"native", "java"})
    public String backend;

    @Param({"bf16", "f32"})
    public String output;

    @Param({"linear", "swizzled"})
    public String layout;

    @Param({"16384"})
    public long rows;

    @Param({"8192"})
    public long k;

    @Param({"2"})
    public int threads;

    private Arena arena;
    private ScaleLayout scaleLayout;
    private MemorySegment packed;
    private MemorySegment scales;
    private MemorySegment out;
    private NativeNvfp4 kernels;
    private final float globalScale = 1f / 2688;

    @Setup(Level.Trial)
    public void setUp() {
        scaleLayout = switch (layout) {
            case "linear" -> ScaleLayout.LINEAR;
            case "swizzled" -> ScaleLayout.SWIZZLED_128X4;
            default -> throw new IllegalArgumentException("layout " + layout + "; expected linear or swizzled");
        };
        arena = Arena.ofShared();
        SplittableRandom random = new SplittableRandom(4);
        packed = arena.allocate(rows * k / 2, 64);
        for (long i = 0; i < packed.byteSize(); i += 8) {
            packed.set(ValueLayout.JAVA_LONG_UNALIGNED, i, random.nextLong());
        }
        scales = arena.allocate(scaleLayout.bytes(rows, k), 64);
        for (long r = 0; r < rows; r++) {
            for (long c = 0; c < k / 16; c++) {
                // E4M3 0x20..0x4F: 2^-3 .. 15 — finite, normal, a realistic spread of block scales.
                scales.set(ValueLayout.JAVA_BYTE, scaleLayout.offset(r, c, k), (byte) (0x20 + random.nextInt(0x30)));
            }
        }
        long outBytes = switch (output.toLowerCase(Locale.ROOT)) {
            case "bf16" -> 2;
            case "f32" -> 4;
            default -> throw new IllegalArgumentException("output " + output + "; expected bf16 or f32");
        };
        out = arena.allocate(rows * k * outBytes, 64);
        out.fill((byte) 0);
        kernels = new NativeNvfp4(BenchLibrary.loadInFork());
    }

    @Benchmark
    public MemorySegment dequantize() {
        boolean bf16 = output.equals("bf16");
        if (backend.equals("native")) {
            if (bf16) {
                kernels.dequantBf16(packed, scales, scaleLayout, globalScale, rows, k, out, threads);
            } else {
                kernels.dequantF32(packed, scales, scaleLayout, globalScale, rows, k, out, threads);
            }
        } else if (backend.equals("java")) {
            if (bf16) {
                Nvfp4Reference.dequantizeBf16(packed, scales, scaleLayout, globalScale, rows, k, out);
            } else {
                Nvfp4Reference.dequantizeF32(packed, scales, scaleLayout, globalScale, rows, k, out);
            }
        } else {
            throw new IllegalArgumentException("backend " + backend + "; expected native or java");
        }
        return out;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }
}
