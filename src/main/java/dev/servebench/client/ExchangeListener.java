package dev.servebench.client;

import dev.servebench.record.RequestRecord;

/** Receives a finished request: its record and, when it was sent keeping its text, the text it generated. */
@FunctionalInterface
public interface ExchangeListener {

    /**
     * Called once per request, on an event-loop thread.
     *
     * @param generatedText SGLang's {@code generated_text} of a successful request sent keeping its text; null
     *                      otherwise (a failed request's text is dropped: SGLang counts 0 for it)
     */
    void finished(RequestRecord record, String generatedText);
}
