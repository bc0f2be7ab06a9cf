package dev.starling.server.queries;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The query log: one JSON line per query that ended, on the logger {@code query_log} (so the
 * logging configuration decides where it goes; by default the server's log, with its timestamp).
 */
public final class QueryLog implements Consumer<QueryRecord> {
    private static final Logger LOG = LoggerFactory.getLogger("query_log");
    static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    @Override
    public void accept(QueryRecord r) {
        if (LOG.isInfoEnabled()) {
            LOG.info(json(r));
        }
    }

    /** {@code value} as one line of JSON (the query log's lines, the status page). */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a query record did not serialize", e);
        }
    }
}
