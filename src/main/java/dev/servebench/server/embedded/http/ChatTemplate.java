package dev.servebench.server.embedded.http;

import java.util.List;

/**
 * Turns chat messages into one prompt. The embedded model is a random-weight benchmark model with no chat
 * format of its own, so the template only has to be simple, stable and documented: one line per message,
 * {@code "<role>: <content>\n"}, then {@code "assistant:"} as the generation cue. Example:
 *
 * <pre>
 * system: Be brief.
 * user: Hello
 * assistant:</pre>
 *
 * <p>The template adds a few tokens per message, so {@code usage.prompt_tokens} of a chat request is larger
 * than the token count of the message text alone.
 */
final class ChatTemplate {

    record Message(String role, String content) {}

    private ChatTemplate() {}

    static String render(List<Message> messages) {
        StringBuilder prompt = new StringBuilder();
        for (Message m : messages) {
            prompt.append(m.role()).append(": ").append(m.content()).append('\n');
        }
        return prompt.append("assistant:").toString();
    }
}
