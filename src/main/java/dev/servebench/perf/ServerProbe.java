package dev.servebench.perf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Checks, before any load, that the server answers, and finds its model name and vocabulary size. */
public final class ServerProbe {

    /** The server could not be reached at all; the message is one line for the user. */
    public static final class UnreachableException extends IOException {
        UnreachableException(String message) {
            super(message);
        }
    }

    /**
     * What the server says about itself.
     *
     * @param model     the first model id of {@code /v1/models}
     * @param vocabSize the vocabulary size, where the model entry states it ({@code vocab_size}, as
     *                  {@code servebench serve} does; SGLang and vLLM do not)
     */
    public record ServerInfo(Optional<String> model, java.util.OptionalInt vocabSize) {
        static final ServerInfo UNKNOWN = new ServerInfo(Optional.empty(), java.util.OptionalInt.empty());
    }

    private ServerProbe() {}


    /**
     * GETs {@code /v1/models}. Any HTTP answer proves the server is up; the first model id is returned when
     * the answer is an OpenAI model list.
     */
    public static ServerInfo describe(URI baseUrl, Optional<String> apiKey) throws UnreachableException {
        URI models = URI.create(stripSlash(baseUrl.toString()) + "/v1/models");
        HttpRequest.Builder request = HttpRequest.newBuilder(models).timeout(Duration.ofSeconds(30)).GET();
        apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return ServerInfo.UNKNOWN;
            }
            JsonNode data = new ObjectMapper().readTree(response.body()).path("data");
            if (!data.isArray() || data.isEmpty()) {
                return ServerInfo.UNKNOWN;
            }
            JsonNode first = data.get(0);
            Optional<String> model = first.path("id").isTextual() ? Optional.of(first.path("id").asText()) : Optional.empty();
            JsonNode vocab = first.path("vocab_size");
            return new ServerInfo(model, vocab.canConvertToInt() && vocab.isIntegralNumber() && vocab.intValue() > 0
                    ? java.util.OptionalInt.of(vocab.intValue()) : java.util.OptionalInt.empty());
        } catch (ConnectException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": connection refused");
        } catch (java.net.http.HttpConnectTimeoutException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": connect timed out");
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return ServerInfo.UNKNOWN;
        } catch (IOException e) {
            throw new UnreachableException("cannot reach " + baseUrl + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnreachableException("interrupted while probing " + baseUrl);
        }
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
