package dev.servebench.kernels.ggml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import dev.servebench.server.embedded.NativeLibrary;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GgmlLibraryTest {

    @Test
    void loadsTheB4916BuildOnceAndDescribesIt() {
        GgmlLibrary library = GgmlLibrary.load();
        assertThat(GgmlLibrary.load()).isSameAs(library);
        assertThat(library.buildNumber()).isEqualTo(4916);
        assertThat(library.commit()).matches("[0-9a-f]{7,40}");
        // de.kherud's Linux x86_64 jar carries the portable build: AVX2 kernels, no AVX-512 ones.
        assertThat(library.hasAvx2()).isTrue();
        assertThat(library.hasAvx512()).isFalse();
        assertThat(library.fingerprint()).isEqualTo("llama.cpp b4916 (" + library.commit() + ") ggml avx2=1 avx512=0");
        assertThat(library.path().getFileName()).hasToString("libjllama.so");
    }

    @Test
    void extractionIsReusedAndATruncatedCopyIsReplaced(@TempDir Path cache) throws IOException {
        long resourceSize;
        try (InputStream in = GgmlLibraryTest.class.getResourceAsStream(NativeLibrary.resourcePath())) {
            assertThat(in).as("class-path resource %s", NativeLibrary.resourcePath()).isNotNull();
            resourceSize = in.transferTo(java.io.OutputStream.nullOutputStream());
        }
        Path first = NativeLibrary.extract(cache);
        assertThat(first.getParent().getParent()).isEqualTo(cache);
        assertThat(first.getParent().getFileName().toString()).matches("[0-9a-f]{16}");
        assertThat(Files.size(first)).isEqualTo(resourceSize);

        FileTime marked = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(first, marked);
        Path second = NativeLibrary.extract(cache);
        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second)).as("not rewritten").isEqualTo(marked);

        Files.write(first, new byte[] {1, 2, 3});
        assertThat(NativeLibrary.extract(cache)).isEqualTo(first);
        assertThat(Files.size(first)).isEqualTo(resourceSize);
        try (var entries = Files.list(first.getParent())) {
            assertThat(entries).as("no temporary files left").containsExactly(first);
        }
    }

    @Test
    void aMissingLibraryIsNamed() {
        assertThatThrownBy(() -> GgmlLibrary.load(Path.of("no/such/libjllama.so")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no/such/libjllama.so");
    }
}
