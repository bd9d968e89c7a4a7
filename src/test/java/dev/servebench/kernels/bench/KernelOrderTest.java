package dev.servebench.kernels.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which kernel points a kernel A/B comparison measures, and the order of each round's forks. */
class KernelOrderTest {

    private static final List<KernelOrder.Point> DEQUANT_AND_MOE = KernelOrder.points(2,
            Optional.of(Pattern.compile("Nvfp4|Moe")), Map.of());

    @Test
    void theSmokePlansLibraryPointsAreComparedEachOnce() {
        assertThat(DEQUANT_AND_MOE).extracting(KernelOrder.Point::toString).containsExactly(
                "Nvfp4DequantBenchmark:backend=native,output=bf16,layout=linear,rows=16384,k=8192,threads=2",
                "MoeBenchmark:backend=native,shape=6144x256x256x8,tokens=64,threads=2",
                "MoeBenchmark:backend=native,shape=6144x256x256x8,tokens=1,threads=2");
        List<KernelOrder.Point> all = KernelOrder.points(2, Optional.empty(), Map.of());
        assertThat(all).extracting(KernelOrder.Point::simpleName).containsOnly("MemcpyBenchmark",
                "Nvfp4DequantBenchmark", "MoeBenchmark", "AllreduceBenchmark");
        assertThat(all).as("the Java references and ggml run the same code on both sides")
                .allSatisfy(point -> assertThat(point.params().getOrDefault("backend", "native")).isEqualTo("native"));
        assertThat(new HashSet<>(all)).hasSameSizeAs(all);
    }

    @Test
    void aParameterOverrideReplacesTheValuesWhereverABenchmarkHasIt() {
        List<KernelOrder.Point> points = KernelOrder.points(2, Optional.of(Pattern.compile("Moe")),
                Map.of("tokens", List.of("16", "256")));

        assertThat(points).extracting(p -> p.params().get("tokens")).containsExactly("16", "256");
    }

    @Test
    void nothingToCompareIsBadInputThatSaysWhy() {
        assertThatThrownBy(() -> KernelOrder.points(2, Optional.of(Pattern.compile("Moe")),
                Map.of("backend", List.of("java"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no kernel point to compare matches --only Moe")
                .hasMessageContaining("backend=native");
    }

    @Test
    void eachRoundRunsOneForkPerSideAndPointBackToBackInASeededRandomOrder() {
        Set<String> firstSides = new HashSet<>();
        Set<List<KernelOrder.Point>> pointOrders = new HashSet<>();
        for (int round = 1; round <= 20; round++) {
            List<KernelOrder.Visit> visits = KernelOrder.round(DEQUANT_AND_MOE, 7, round);
            assertThat(visits).hasSize(2 * DEQUANT_AND_MOE.size());
            for (int i = 0; i < visits.size(); i += 2) {
                KernelOrder.Visit first = visits.get(i);
                KernelOrder.Visit second = visits.get(i + 1);
                assertThat(second.point()).as("a pair's forks are adjacent").isEqualTo(first.point());
                assertThat(Set.of(first.side(), second.side())).containsExactlyInAnyOrder("A", "B");
                firstSides.add(first.side());
            }
            pointOrders.add(visits.stream().map(KernelOrder.Visit::point).distinct().toList());
            assertThat(KernelOrder.round(DEQUANT_AND_MOE, 7, round)).as("same seed and round, same order")
                    .isEqualTo(visits);
        }
        assertThat(firstSides).as("either side goes first").containsExactlyInAnyOrder("A", "B");
        assertThat(pointOrders).as("the points' order changes between rounds").hasSizeGreaterThan(1);
        assertThat(IntStream.rangeClosed(8, 12).mapToObj(seed -> KernelOrder.round(DEQUANT_AND_MOE, seed, 1)))
                .as("another seed, another order").anyMatch(o -> !o.equals(KernelOrder.round(DEQUANT_AND_MOE, 7, 1)));
    }
}
