package dev.servebench.spec;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Where a spec came from and the SHA-256 of its exact bytes. Baselines are keyed on the hash, so it covers
 * the file as written (comments and formatting included): any edit starts a new baseline rather than
 * silently comparing against numbers measured under different rules.
 *
 * @param file   the spec file as it was named to the reader
 * @param sha256 64 lower-case hex digits
 */
public record SpecSource(Path file, String sha256) {

    public SpecSource {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(sha256, "sha256");
        if (!sha256.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("sha256 must be 64 lower-case hex digits, got '" + sha256 + "'");
        }
    }

    /** The source of {@code content}, the bytes of {@code file}. */
    public static SpecSource of(Path file, byte[] content) {
        try {
            return new SpecSource(file, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
