package dev.servebench.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class KernelLibraryTest {

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void everyBuiltVariantLoadsAndNamesItsInstructionSet(KernelLibrary.Variant variant) {
        KernelLibrary library = KernelLibrary.load(variant);
        assertThat(library.abiVersion()).isEqualTo(1);
        assertThat(library.implementation()).startsWith("servebench-c ");
        if (variant == KernelLibrary.Variant.SCALAR) {
            assertThat(library.implementation()).isEqualTo("servebench-c scalar");
        }
    }

    @Test
    void missingLibraryAndMissingSymbolAreNamed() {
        assertThatThrownBy(() -> KernelLibrary.load(Path.of("no/such/lib.so")))
                .hasMessageContaining("kernel library not found").hasMessageContaining("lib.so");
        assertThatThrownBy(() -> KernelLibrary.load().handle("sb_no_such_kernel",
                java.lang.foreign.FunctionDescriptor.ofVoid()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("sb_no_such_kernel");
    }

    @Test
    void copyMovesEveryByteWithUnevenThreadShares() {
        NativeCopy copy = new NativeCopy(KernelLibrary.load());
        try (Arena arena = Arena.ofConfined()) {
            long bytes = 1_000_003;
            MemorySegment source = arena.allocate(bytes);
            for (long i = 0; i < bytes; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            MemorySegment destination = arena.allocate(bytes);
            copy.copy(destination, source, 3);
            assertThat(destination.mismatch(source)).isEqualTo(-1);
        }
    }

    @Test
    void copyRejectsHeapNullAndShortSegmentsBeforeCallingNative() {
        NativeCopy copy = new NativeCopy(KernelLibrary.load());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(8);
            MemorySegment large = arena.allocate(16);
            assertThatThrownBy(() -> copy.copy(small, large, 1)).hasMessageContaining("destination holds 8 bytes");
            assertThatThrownBy(() -> copy.copy(MemorySegment.ofArray(new byte[16]), large, 1))
                    .hasMessageContaining("heap segment");
            assertThatThrownBy(() -> copy.copy(null, large, 1)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("destination is null");
            assertThatThrownBy(() -> copy.copy(large, small, 0)).hasMessageContaining("threads = 0");
        }
    }
}
