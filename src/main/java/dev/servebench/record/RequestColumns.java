package dev.servebench.record;

import java.util.ArrayList;
import java.util.List;

/**
 * The fixed-size fields of every stored request, by slot (append order), in pages of primitive arrays:
 * pages never move once allocated, so growing costs no copy and no transient doubling. Outcome byte: 0 for
 * success, otherwise 1 + the {@link FailureKind} ordinal. Usage -1: the server sent none. The retokenized
 * output count (-1: none) takes a page's column only once a request of that page carries one, so a run
 * without a client tokenizer pays nothing for it. Not thread-safe.
 */
final class RequestColumns {

    static final int PAGE_BITS = 12;
    static final int PAGE = 1 << PAGE_BITS;
    /** Heap bytes per request: 3 ints, 4 longs, event offset and count, 2 usage ints, outcome, status. */
    static final int BYTES_PER_REQUEST = 3 * 4 + 4 * 8 + 8 + 4 + 2 * 4 + 1 + 2;
    /** Heap bytes per request of a page whose requests were retokenized. */
    static final int RETOKENIZED_BYTES_PER_REQUEST = 4;

    private final List<Page> pages = new ArrayList<>();
    private int size;
    private int retokenizedPages;

    private static final class Page {
        final int[] index = new int[PAGE];
        final int[] promptLen = new int[PAGE];
        final int[] requestedOutputLen = new int[PAGE];
        final long[] intended = new long[PAGE];
        final long[] ready = new long[PAGE];
        final long[] sent = new long[PAGE];
        final long[] end = new long[PAGE];
        final long[] firstEvent = new long[PAGE];
        final int[] eventCount = new int[PAGE];
        final int[] usagePrompt = new int[PAGE];
        final int[] usageCompletion = new int[PAGE];
        final byte[] outcome = new byte[PAGE];
        final short[] httpStatus = new short[PAGE];
        int[] retokenized;
    }

    int size() {
        return size;
    }

    /** Stores the record's fixed fields in the next slot; its events start at {@code firstEvent} of the log. */
    void add(RequestRecord r, long firstEvent) {
        int offset = size & (PAGE - 1);
        if (offset == 0) {
            pages.add(new Page());
        }
        Page p = pages.getLast();
        p.index[offset] = r.index();
        p.promptLen[offset] = r.promptLen();
        p.requestedOutputLen[offset] = r.requestedOutputLen();
        p.intended[offset] = r.intendedNanos();
        p.ready[offset] = r.readyNanos();
        p.sent[offset] = r.sentNanos();
        p.end[offset] = r.endNanos();
        p.firstEvent[offset] = firstEvent;
        p.eventCount[offset] = r.chunks().size();
        p.usagePrompt[offset] = r.usage().map(Usage::promptTokens).orElse(-1);
        p.usageCompletion[offset] = r.usage().map(Usage::completionTokens).orElse(-1);
        if (r.retokenizedOutputLen().isPresent()) {
            if (p.retokenized == null) {
                p.retokenized = new int[PAGE];
                java.util.Arrays.fill(p.retokenized, -1);
                retokenizedPages++;
            }
            p.retokenized[offset] = r.retokenizedOutputLen().getAsInt();
        } else if (p.retokenized != null) {
            p.retokenized[offset] = -1;
        }
        switch (r.outcome()) {
            case Outcome.Success s -> p.outcome[offset] = 0;
            case Outcome.Failure f -> {
                p.outcome[offset] = (byte) (1 + f.kind().ordinal());
                p.httpStatus[offset] = (short) f.httpStatus();
            }
        }
        size++;
    }

    /** Copies slot {@code slot}'s fields into the cursor. */
    void load(int slot, RecordCursor into) {
        Page p = pages.get(slot >>> PAGE_BITS);
        int o = slot & (PAGE - 1);
        into.set(slot, p.index[o], p.promptLen[o], p.requestedOutputLen[o], p.intended[o], p.ready[o], p.sent[o],
                p.end[o], p.usagePrompt[o], p.usageCompletion[o], p.outcome[o], p.httpStatus[o],
                p.retokenized == null ? -1 : p.retokenized[o]);
    }

    long firstEvent(int slot) {
        return pages.get(slot >>> PAGE_BITS).firstEvent[slot & (PAGE - 1)];
    }

    int eventCount(int slot) {
        return pages.get(slot >>> PAGE_BITS).eventCount[slot & (PAGE - 1)];
    }

    int index(int slot) {
        return pages.get(slot >>> PAGE_BITS).index[slot & (PAGE - 1)];
    }

    long heapBytes() {
        return (long) pages.size() * PAGE * BYTES_PER_REQUEST + 8L * pages.size()
                + (long) retokenizedPages * PAGE * RETOKENIZED_BYTES_PER_REQUEST;
    }

    void clear() {
        pages.clear();
    }
}
