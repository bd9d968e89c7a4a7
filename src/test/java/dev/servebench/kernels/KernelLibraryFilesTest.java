package dev.servebench.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel libraries are found where the build left them, else taken from the class path (the jar) into the
 * native cache; where neither has them, the error names both places.
 */
class KernelLibraryFilesTest {

    @TempDir
    Path directory;

    @Test
    void withoutTheBuildDirectoryTheClassPathCopyIsExtractedAndLoads() throws IOException {
        Path cache = directory.resolve("cache");
        KernelLibraryFiles files = new KernelLibraryFiles(directory.resolve("no-build"),
                KernelLibraryFiles.standard().resourceFolder(), cache);

        for (KernelLibrary.Variant variant : KernelLibrary.Variant.values()) {
            Path extracted = files.locate(variant);

            assertThat(extracted).startsWith(cache).hasFileName(variant.fileName());
            // Content-addressed: the same bytes as the build's, under a directory named by their hash.
            assertThat(Files.mismatch(extracted, KernelLibrary.BUILD_DIRECTORY.resolve(variant.fileName())))
                    .isEqualTo(-1);
            assertThat(files.locate(variant)).as("a second use reuses the file").isEqualTo(extracted);
            KernelLibrary library = KernelLibrary.load(extracted);
            assertThat(library.abiVersion()).isEqualTo(1);
            assertThat(library.implementation()).startsWith("servebench-c ");
        }
    }

    @Test
    void theBuildDirectoryComesFirst() throws IOException {
        Path build = Files.createDirectories(directory.resolve("build"));
        Path built = Files.writeString(build.resolve(KernelLibrary.Variant.SCALAR.fileName()), "not loaded here");
        KernelLibraryFiles files = new KernelLibraryFiles(build, KernelLibraryFiles.standard().resourceFolder(),
                directory.resolve("cache"));

        assertThat(files.locate(KernelLibrary.Variant.SCALAR)).isEqualTo(built.toAbsolutePath().normalize());
        assertThat(directory.resolve("cache")).doesNotExist();
    }

    @Test
    void neitherPlaceHoldingTheLibraryIsAnErrorNamingBoth() {
        KernelLibraryFiles files = new KernelLibraryFiles(directory.resolve("no-build"), "/native/no-such-platform",
                directory.resolve("cache"));

        assertThatThrownBy(() -> files.locate(KernelLibrary.Variant.DISPATCH))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("kernel library libservebench_kernels.so not found; tried "
                        + directory.resolve("no-build").resolve("libservebench_kernels.so"))
                .hasMessageContaining("class-path resource /native/no-such-platform/libservebench_kernels.so")
                .hasMessageContaining("-Dservebench.kernels.lib=PATH");
    }

    @Test
    void aResourceFolderMustBeAnAbsoluteClassPathFolder() {
        assertThatThrownBy(() -> new KernelLibraryFiles(directory, "native/linux-x86_64", directory))
                .hasMessageContaining("expected an absolute class-path folder");
    }
}
