package dev.servebench.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one repeat's client JVM of the cold-start timing benchmark measured, whichever client it ran; printed as
 * one JSON line for the parent, which pairs it with the server's emission log.
 *
 * @param originNanos   the run's origin on the shared monotonic clock; every other time is relative to it
 * @param hotPathMillis how long the hot-path warm-up took, -1 when there was none
 * @param measuredGc    the client JVM's garbage collections while the measured requests ran
 */
record ClientTimes(long originNanos, long hotPathMillis, GcWindow measuredGc, List<Request> requests) {

    /**
     * One measured request.
     *
     * @param promptLen  the request's identity in the server's emission log
     * @param ttftMs     first token minus send, as the client computes TTFT
     * @param chunkNanos arrival of each token-carrying event
     */
    record Request(int promptLen, long sentNanos, double ttftMs, long[] chunkNanos) {
        Request {
            if (chunkNanos.length == 0) {
                throw new IllegalArgumentException("request with prompt " + promptLen + " has no token");
            }
        }
    }

    ClientTimes {
        requests = List.copyOf(requests);
    }

    ObjectNode toJson(ObjectMapper json) {
        ObjectNode out = json.createObjectNode();
        out.put("origin_nanos", originNanos);
        out.put("hot_path_warmup_ms", hotPathMillis);
        out.put("gc_collections_measured", measuredGc.collections());
        out.put("gc_ms_measured", measuredGc.millis());
        ArrayNode array = out.putArray("requests");
        for (Request r : requests) {
            ObjectNode request = array.addObject();
            request.put("prompt_len", r.promptLen());
            request.put("sent_nanos", r.sentNanos());
            request.put("ttft_ms", r.ttftMs());
            ArrayNode chunks = request.putArray("chunk_nanos");
            for (long nanos : r.chunkNanos()) {
                chunks.add(nanos);
            }
        }
        return out;
    }
}
