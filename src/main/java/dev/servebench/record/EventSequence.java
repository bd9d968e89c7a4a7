package dev.servebench.record;

/**
 * Arrival time and token count of one request's choice-bearing stream events, in arrival order: the one
 * shape both {@link ChunkTimeline} and a {@link RecordStore} cursor present, so that the per-request
 * definitions in {@link RequestTimes} exist once.
 */
public interface EventSequence {

    int size();

    long nanosAt(int i);

    int tokensAt(int i);

    /** Sum of the token counts of all events. */
    default long totalTokens() {
        long sum = 0;
        for (int i = 0; i < size(); i++) {
            sum += tokensAt(i);
        }
        return sum;
    }

    /** Number of events that carried at least one token. */
    default int tokenEventCount() {
        int count = 0;
        for (int i = 0; i < size(); i++) {
            if (tokensAt(i) > 0) {
                count++;
            }
        }
        return count;
    }

    /** Index of the first event with at least one token, or -1. */
    default int firstTokenEvent() {
        for (int i = 0; i < size(); i++) {
            if (tokensAt(i) > 0) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the last event with at least one token, or -1. */
    default int lastTokenEvent() {
        for (int i = size() - 1; i >= 0; i--) {
            if (tokensAt(i) > 0) {
                return i;
            }
        }
        return -1;
    }
}
