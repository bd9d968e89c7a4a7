package dev.servebench.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutableLookupTest {

    @TempDir
    Path dir;

    @Test
    void findsTheFirstExecutableInPathOrder() throws Exception {
        Path first = Files.createDirectory(dir.resolve("first"));
        Path second = Files.createDirectory(dir.resolve("second"));
        Path notExecutable = Files.writeString(first.resolve("tool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createDirectory(second.resolve("other"));
        Path executable = Files.writeString(second.resolve("tool"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));

        ExecutableLookup lookup = ExecutableLookup.onPath(File.pathSeparator + first + File.pathSeparator + second);

        assertThat(lookup.find("tool")).hasValue(executable);
        assertThat(lookup.find("other")).isEmpty(); // a directory is no executable
        assertThat(lookup.find("absent")).isEmpty();
        assertThat(ExecutableLookup.onPath("").find("sh")).isEmpty();
    }
}
