package dev.servebench.telemetry.gpu;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Finds an executable by name, the way a shell searches PATH. Injectable, so tests can supply a fake. */
@FunctionalInterface
public interface ExecutableLookup {

    /** The first regular, executable file of that name, or empty. */
    Optional<Path> find(String name);

    /** Searches this process's {@code PATH}. */
    static ExecutableLookup systemPath() {
        return onPath(Objects.requireNonNullElse(System.getenv("PATH"), ""));
    }

    /** Searches the directories of a PATH-style value ({@link File#pathSeparator}-separated), in order. */
    static ExecutableLookup onPath(String pathValue) {
        List<Path> directories = new ArrayList<>();
        for (String entry : pathValue.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue; // an empty entry means the working directory to a shell; never for a tool we launch
            }
            try {
                directories.add(Path.of(entry));
            } catch (InvalidPathException e) {
                // a malformed entry cannot hold the executable; skip it as a shell would
            }
        }
        List<Path> searched = List.copyOf(directories);
        return name -> searched.stream()
                .map(dir -> dir.resolve(name))
                .filter(p -> Files.isRegularFile(p) && Files.isExecutable(p))
                .findFirst();
    }
}
