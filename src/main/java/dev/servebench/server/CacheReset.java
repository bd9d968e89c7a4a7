package dev.servebench.server;

import java.net.URI;
import java.util.Objects;

/** What asking a server to empty its prefix cache came to. */
public sealed interface CacheReset permits CacheReset.Done, CacheReset.NotOffered, CacheReset.Failed {

    /** One line for logs and reports. */
    String describe();

    /** The server emptied its cache. @param endpoint the URL that did it */
    record Done(URI endpoint) implements CacheReset {
        public Done {
            Objects.requireNonNull(endpoint, "endpoint");
        }

        @Override
        public String describe() {
            return "prefix cache reset via POST " + Redaction.url(endpoint);
        }
    }

    /** The server has no way to do it (or none that is switched on); measurements go on with a warm cache. */
    record NotOffered(String reason) implements CacheReset {
        public NotOffered {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String describe() {
            return "no prefix cache reset: " + reason;
        }
    }

    /** The server offers a reset but it did not happen (busy, error, unreachable). */
    record Failed(String reason) implements CacheReset {
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String describe() {
            return "prefix cache reset failed: " + reason;
        }
    }
}
