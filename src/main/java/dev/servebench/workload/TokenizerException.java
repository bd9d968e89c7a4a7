package dev.servebench.workload;

import java.nio.file.Path;

/**
 * A tokenizer named by the user cannot be used: the file is missing, is not a HuggingFace
 * {@code tokenizer.json}, or the native library could not be loaded. Bad input, so an
 * {@link IllegalArgumentException}: the command line reports it in one line.
 */
public final class TokenizerException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public TokenizerException(Path path, String message, Throwable cause) {
        super("tokenizer " + path + ": " + message, cause);
    }
}
