package dev.servebench.spec;

import java.util.Locale;

/** {@code --prompt-format}: how random prompts are sent. */
public enum PromptFormat {
    /** Token-id arrays where the endpoint takes them (exact input length), else text. */
    AUTO,
    IDS,
    TEXT;

    /** The name in YAML and on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
