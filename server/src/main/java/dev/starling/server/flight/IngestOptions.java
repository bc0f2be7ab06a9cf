package dev.starling.server.flight;

import dev.starling.engine.data.Ingest;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;

/**
 * A bulk ingest's table definition options as Starling's {@link Ingest}. Left unspecified, a
 * missing table is created and an existing one refused, as ADBC's default ingest mode ("create")
 * asks.
 */
final class IngestOptions {
    private IngestOptions() { }

    static Ingest of(String table, TableDefinitionOptions options) {
        boolean create = switch (options.getIfNotExist()) {
            case TABLE_NOT_EXIST_OPTION_UNSPECIFIED, TABLE_NOT_EXIST_OPTION_CREATE -> true;
            case TABLE_NOT_EXIST_OPTION_FAIL -> false;
            case UNRECOGNIZED -> throw unknown("if_not_exist", options.getIfNotExistValue());
        };
        Ingest.IfExists exists = switch (options.getIfExists()) {
            case TABLE_EXISTS_OPTION_UNSPECIFIED, TABLE_EXISTS_OPTION_FAIL -> Ingest.IfExists.FAIL;
            case TABLE_EXISTS_OPTION_APPEND -> Ingest.IfExists.APPEND;
            case TABLE_EXISTS_OPTION_REPLACE -> Ingest.IfExists.REPLACE;
            case UNRECOGNIZED -> throw unknown("if_exists", options.getIfExistsValue());
        };
        return new Ingest(table, create, exists);
    }

    private static RuntimeException unknown(String option, int value) {
        return CallStatus.INVALID_ARGUMENT.withDescription("an ingest's table definition option " + option + " of "
                + value + ", which Flight SQL does not define").toRuntimeException();
    }
}
