package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class FlightErrorsTest {
    @Test
    void aFaultOfStarlingsIsOneLineNamingTheQueryWithoutPackages() {
        MDC.put("query", "q-17");
        try {
            FlightRuntimeException e = FlightErrors.of(new AssertionError("Cannot add expression of different type to set:\n"
                    + "set type is RecordType(INTEGER NOT NULL n_nationkey)"));
            assertEquals(FlightStatusCode.INTERNAL, e.status().code());
            String said = e.status().description();
            assertTrue(said.startsWith("internal error in query q-17 (AssertionError: Cannot add expression of different "
                    + "type to set:)"), said);
            assertFalse(said.contains("\n") || said.contains("java.lang") || said.contains("RecordType"), said);
        } finally {
            MDC.remove("query");
        }
        String unnamed = FlightErrors.of(new IllegalStateException()).status().description();
        assertTrue(unnamed.startsWith("internal error (IllegalStateException), a fault of Starling's"), unnamed);
    }
}
