package dev.servebench.server;

/**
 * Token ids a random prompt may use: {@code [idBase, idBase + span)}.
 *
 * @param idBase first id, above the vocabulary's special tokens
 * @param span   number of ids
 */
public record TokenIdRange(int idBase, int span) {

    public TokenIdRange {
        if (idBase < 0 || span < 1 || (long) idBase + span - 1 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("token id range [" + idBase + ", " + idBase + " + " + span
                    + ") must start at >= 0, hold >= 1 id and fit in an int");
        }
    }
}
