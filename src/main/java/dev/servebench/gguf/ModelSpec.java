package dev.servebench.gguf;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A generated model: same spec, same bytes.
 *
 * @param seed    seed of the random weights
 * @param weights storage type of the large matrices
 * @param dims    shape
 */
public record ModelSpec(long seed, WeightType weights, ModelDims dims) {

    /**
     * Bumped whenever the generator's output changes for the same spec, so cached files from an older
     * generator are not reused.
     */
    static final int GENERATOR_VERSION = 1;

    public ModelSpec {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(dims, "dims");
    }

    /** The benchmark shape ({@link ModelDims#TINY}). */
    public ModelSpec(long seed, WeightType weights) {
        this(seed, weights, ModelDims.TINY);
    }

    /** {@code tiny-moe-<hash>-<weights>.gguf}; the hash covers every field and the generator version. */
    public String fileName() {
        return "tiny-moe-" + hash() + "-" + weights.label() + ".gguf";
    }

    /** Name the engine reports for the model, e.g. {@code tiny-moe-q4_0}. */
    public String modelName() {
        return "tiny-moe-" + weights.label();
    }

    String hash() {
        String canonical = "v" + GENERATOR_VERSION + "|" + seed + "|" + weights.label() + "|" + dims;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }
}
