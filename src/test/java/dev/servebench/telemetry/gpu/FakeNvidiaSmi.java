package dev.servebench.telemetry.gpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes a shell script named nvidia-smi into a directory, for an injected PATH. */
final class FakeNvidiaSmi {

    private FakeNvidiaSmi() {}

    /** The script records its arguments in {@code args} and its pid in {@code pid}, then runs {@code body}. */
    static Path install(Path dir, String body) throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, """
                #!/bin/sh
                here=$(dirname "$0")
                echo "$@" > "$here/args"
                echo $$ > "$here/pid"
                """ + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    /** PATH with the fake first, then the real PATH (for sh, sleep, echo). */
    static ExecutableLookup lookupWith(Path dir) {
        return ExecutableLookup.onPath(dir + java.io.File.pathSeparator + System.getenv("PATH"));
    }
}
