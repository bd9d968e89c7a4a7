package dev.servebench.server;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Renders what a target runs for reports and logs without its secrets: values of secret-looking options
 * ({@code --api-key}, {@code --hf-token}, …), environment values (only names are shown) and URL user info.
 */
public final class Redaction {

    static final String HIDDEN = "***";
    /** Longest argument shown whole; a class path is cut. */
    static final int MAX_ARGUMENT_CHARS = 120;
    /** Words that make an option secret: {@code --api-key}, {@code --hf-token}; not {@code --max-total-tokens}. */
    private static final Set<String> SECRET_WORDS =
            Set.of("key", "apikey", "token", "secret", "password", "passwd", "credential", "credentials");
    private static final Pattern WORD_SEPARATORS = Pattern.compile("[-_.]+");

    private Redaction() {}

    /** A command line as one string, secret option values replaced by {@value #HIDDEN}, long arguments cut. */
    public static String command(List<String> command) {
        List<String> shown = new ArrayList<>(command.size());
        boolean hideNext = false;
        for (String argument : command) {
            if (hideNext) {
                shown.add(HIDDEN);
                hideNext = false;
                continue;
            }
            int equals = argument.indexOf('=');
            if (equals > 0 && isSecretOption(argument.substring(0, equals))) {
                shown.add(argument.substring(0, equals + 1) + HIDDEN);
            } else {
                hideNext = isSecretOption(argument);
                shown.add(shorten(argument));
            }
        }
        return String.join(" ", shown);
    }

    /** Environment variable names only: values often are tokens. */
    public static String environmentNames(Map<String, String> env) {
        return env.isEmpty() ? "none" : String.join(", ", env.keySet());
    }

    /** The URL without user info ({@code http://user:pass@host} shows as {@code http://host}). */
    public static String url(URI url) {
        if (url.getUserInfo() == null) {
            return url.toString();
        }
        try {
            return new URI(url.getScheme(), null, url.getHost(), url.getPort(), url.getPath(), url.getQuery(),
                    url.getFragment()).toString();
        } catch (URISyntaxException e) {
            return url.getScheme() + "://" + url.getHost();
        }
    }

    static boolean isSecretOption(String argument) {
        if (!argument.startsWith("-")) {
            return false;
        }
        for (String word : WORD_SEPARATORS.split(argument.toLowerCase(Locale.ROOT))) {
            if (SECRET_WORDS.contains(word)) {
                return true;
            }
        }
        return false;
    }

    private static String shorten(String argument) {
        return argument.length() <= MAX_ARGUMENT_CHARS ? argument
                : argument.substring(0, MAX_ARGUMENT_CHARS / 2) + "…(" + argument.length() + " chars)";
    }
}
