package dev.servebench.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Project files never point outside the repository: what a comment or doc needs from the notes kept beside
 * the project (a shared docs folder) is restated in docs/ and cited there by file and section, so a reader
 * of a clone can follow every citation. The names of those notes are spelled without their ".md" here so
 * that this file does not cite them itself.
 */
class NoOutsideNotesTest {

    /** Folders and files of the project that carry prose: sources, docs, fixtures, build files. */
    private static final List<String> SCANNED = List.of("src", "docs", "fixtures", "native", "README.md", "pom.xml",
            "Jenkinsfile");

    /** Notes that live outside the repository; the same name under docs/ is the repository's own doc. */
    private static final List<String> OUTSIDE_NOTES = List.of("serving-metrics", "peers", "embedded-engine",
            "toolchain", "style-anchors", "kernels");

    /** Templates that are generated into docs/, so their relative links resolve there (MetricsDocTest). */
    private static final List<Path> DOC_TEMPLATES = List.of(
            Path.of("src", "test", "resources", "dev", "servebench", "metric", "metrics-doc-template.md"));

    private static final Pattern SHARED_FOLDER = Pattern.compile("shared" + "/docs");

    /** A note name as a whole file name; group 1 is the note, the text before it decides whether it is ours. */
    private static final Pattern NOTE = Pattern.compile(
            "(?<![\\w-])(" + String.join("|", OUTSIDE_NOTES.stream().map(Pattern::quote).toList()) + ")\\.md");

    @Test
    void noProjectFileCitesANoteOutsideTheRepository() throws IOException {
        List<Path> files = scannedFiles();
        assertThat(files).as("files scanned from %s", Path.of("").toAbsolutePath())
                .contains(Path.of("README.md"), Path.of("docs", "metrics.md")).hasSizeGreaterThan(100);

        List<String> violations = new ArrayList<>();
        for (Path file : files) {
            String text = textOrNull(file);
            if (text != null) {
                violations.addAll(violations(file, text));
            }
        }
        assertThat(violations).as("""
                Project files must not point outside the repository. Restate what the citation needs in a doc \
                under docs/ (e.g. docs/reference-semantics.md, docs/kernels-nvfp4.md) and cite it by path and \
                section name ("docs/reference-semantics.md, Peak metrics"). Offending lines""").isEmpty();
    }

    @Test
    void theRuleCatchesOutsideCitationsAndAcceptsDocsPaths() {
        Path java = Path.of("src", "main", "java", "Example.java");
        Path doc = Path.of("docs", "example.md");

        assertThat(violations(java, "// see " + "serving-metrics" + ".md §3")).hasSize(1);
        assertThat(violations(java, "// notes in /work/shared/" + "docs/x")).hasSize(1);
        assertThat(violations(java, "// kernels" + ".md 1.6")).hasSize(1);
        assertThat(violations(java, "// see docs/" + "nonexistent-peers" + ".md")).isEmpty();
        assertThat(violations(java, "// docs/" + "embedded-engine" + ".md, Streaming")).isEmpty();
        assertThat(violations(java, "// docs/" + "peers" + ".md")).as("docs/ path without such a doc")
                .hasSize(1);
        assertThat(violations(doc, "formulas in [" + "kernels" + ".md](" + "kernels" + ".md)")).isEmpty();
        assertThat(violations(doc, "formulas in " + "kernels" + ".md §2")).hasSize(1);
        assertThat(violations(Path.of("README.md"), "[docs/kernels" + ".md](docs/kernels.md)")).isEmpty();
    }

    /** One "file:line: text" entry per offending line. */
    private static List<String> violations(Path file, String text) {
        List<String> found = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (SHARED_FOLDER.matcher(line).find() || citesOutsideNote(file, line)) {
                found.add(file + ":" + (i + 1) + ": " + line.strip());
            }
        }
        return found;
    }

    private static boolean citesOutsideNote(Path file, String line) {
        Matcher m = NOTE.matcher(line);
        while (m.find()) {
            String name = m.group(1) + ".md";
            String before = line.substring(0, m.start());
            boolean docsPath = before.endsWith("docs/");
            // Inside docs/, a Markdown link's text or relative target names a sibling doc.
            boolean siblingLink = (file.startsWith("docs") || DOC_TEMPLATES.contains(file)) && (before.endsWith("](")
                    || (before.endsWith("[") && line.startsWith("](", m.end())));
            if (!(docsPath || siblingLink) || !Files.isRegularFile(Path.of("docs", name))) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> scannedFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String root : SCANNED) {
            Path path = Path.of(root);
            if (Files.isRegularFile(path)) {
                files.add(path);
            } else if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
            }
        }
        return files;
    }

    /** The file as UTF-8 text, or null for binary files (a NUL byte), which cite nothing. */
    private static String textOrNull(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            for (byte b : bytes) {
                if (b == 0) {
                    return null;
                }
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
