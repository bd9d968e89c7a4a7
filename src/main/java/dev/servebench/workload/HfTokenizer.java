package dev.servebench.workload;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * A HuggingFace {@code tokenizer.json}, run by the HuggingFace {@code tokenizers} library through DJL
 * ({@code ai.djl.huggingface:tokenizers}). Only local files are read: never a hub name, never a download.
 *
 * <p>DJL is kept offline before its first class loads ({@link #OFFLINE_PROPERTY}, which also stops its
 * telemetry call), so the native library comes from the jar, CPU flavour, and is extracted once to
 * {@code ~/.cache/servebench/djl/tokenizers/<version>-cpu-<os>-<arch>/} unless {@code ENGINE_CACHE_DIR} names
 * another place. An environment that turns DJL's offline mode off is refused rather than obeyed.
 *
 * <p>Truncation and padding are off: DJL would otherwise cut every text at 512 tokens.
 */
public final class HfTokenizer implements Tokenizer, AutoCloseable {

    /** DJL's switch for offline mode; the environment variable {@code DJL_OFFLINE} would override it. */
    static final String OFFLINE_PROPERTY = "ai.djl.offline";
    /** DJL's switch for its telemetry call. */
    static final String TRACKING_PROPERTY = "OPT_OUT_TRACKING";
    /** Where DJL extracts native libraries, when neither the environment nor the JVM names a place. */
    static final String CACHE_PROPERTY = "ENGINE_CACHE_DIR";
    /** The file a model directory holds. */
    public static final String FILE_NAME = "tokenizer.json";

    /**
     * DJL probes the CUDA runtime to pick a native flavour, which offline mode then overrides to CPU; on a
     * machine with a runtime but no usable driver the probe's warning would be noise in servebench.log. Held
     * here because java.util.logging keeps loggers only weakly.
     */
    private static final java.util.logging.Logger CUDA_PROBE_LOG = java.util.logging.Logger.getLogger(
            "ai.djl.util.cuda.CudaUtils");

    private static final Map<String, String> OPTIONS = Map.of(
            "addSpecialTokens", "true", "truncation", "false", "padding", "false");

    private final Path file;
    private final HuggingFaceTokenizer tokenizer;

    private HfTokenizer(Path file, HuggingFaceTokenizer tokenizer) {
        this.file = file;
        this.tokenizer = tokenizer;
    }

    /**
     * Loads {@code path}: a {@code tokenizer.json} or a model directory that holds one.
     *
     * @throws TokenizerException when the file is missing, unreadable or not a tokenizer, or the native
     *                            library cannot be loaded offline
     */
    public static HfTokenizer load(Path path) {
        Objects.requireNonNull(path, "path");
        Path file = Files.isDirectory(path) ? path.resolve(FILE_NAME) : path;
        if (!Files.isRegularFile(file)) {
            throw new TokenizerException(path, Files.isDirectory(path)
                    ? "the directory holds no " + FILE_NAME + " (expected a HuggingFace tokenizer.json or a model"
                    + " directory containing one; tokenizers are never downloaded)"
                    : "no such file (expected a HuggingFace tokenizer.json or a model directory containing one;"
                    + " tokenizers are never downloaded)", null);
        }
        keepOffline(file);
        try {
            return new HfTokenizer(file, HuggingFaceTokenizer.newInstance(file, OPTIONS));
        } catch (IOException e) {
            throw new TokenizerException(file, "cannot read: " + e, e);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            // The Rust side reports a malformed file as a plain RuntimeException with serde's message.
            throw new TokenizerException(file, "not a usable HuggingFace tokenizer.json: " + firstLine(e), e);
        }
    }

    /**
     * Sets DJL's offline, telemetry and cache properties unless already set, then checks that offline mode
     * really holds (an environment variable {@code DJL_OFFLINE=false} wins over the property).
     */
    private static synchronized void keepOffline(Path file) {
        CUDA_PROBE_LOG.setLevel(java.util.logging.Level.SEVERE);
        System.setProperty(OFFLINE_PROPERTY, "true");
        System.setProperty(TRACKING_PROPERTY, "true");
        if (System.getenv(CACHE_PROPERTY) == null && System.getProperty(CACHE_PROPERTY) == null) {
            System.setProperty(CACHE_PROPERTY, Path.of(System.getProperty("user.home"), ".cache", "servebench", "djl")
                    .toString());
        }
        if (!ai.djl.util.Utils.isOfflineMode()) {
            throw new TokenizerException(file, "DJL_OFFLINE is set to something else than true in the environment;"
                    + " servebench loads tokenizers offline only (unset DJL_OFFLINE)", null);
        }
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable cause = e.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            message += ": " + cause.getMessage();
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    @Override
    public int countPrompt(String text) {
        return tokenizer.encode(text, true, false).getIds().length;
    }

    @Override
    public int countText(String text) {
        return tokenizer.encode(text, false, false).getIds().length;
    }

    /** The ids of {@code text} with special tokens, for tests that compare with a server's tokenizer. */
    public long[] encodePrompt(String text) {
        return tokenizer.encode(text, true, false).getIds();
    }

    @Override
    public String describe() {
        return file.toString();
    }

    /** The tokenizer.json read. */
    public Path file() {
        return file;
    }

    @Override
    public void close() {
        tokenizer.close();
    }

    @Override
    public String toString() {
        return "HfTokenizer[" + file + "]";
    }
}
