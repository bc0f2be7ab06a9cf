package dev.starling.server.flight;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.starling.engine.Starling;
import dev.starling.server.config.ServerConfig;
import dev.starling.storage.gen.TpchGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** A result that needs more buffer memory than the server may use fails as RESOURCE_EXHAUSTED; the server goes on. */
class ResultMemoryBudgetTest {

    @Test
    void aResultPastTheBudgetIsRefusedAndTheServerGoesOn() throws Exception {
        try (Starling db = Starling.inMemory()) {
            TpchGenerator.generate(db.catalog(), 0.01, "");
            ServerConfig config = new ServerConfig(new ServerConfig.Listen("127.0.0.1", 0), null, null, null, null, null,
                    new ServerConfig.Memory(1L << 20, null), null, null, null, null);
            try (FlightSqlServer server = FlightSqlServer.start(db, config);
                 Connection c = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port()
                         + "/?useEncryption=false");
                 Statement st = c.createStatement()) {
                SQLException e = assertThrows(SQLException.class, () -> {
                    try (ResultSet rs = st.executeQuery("SELECT * FROM lineitem")) {
                        while (rs.next()) {
                            rs.getObject(1);
                        }
                    }
                });
                assertTrue(String.valueOf(e.getMessage()).contains("RESOURCE_EXHAUSTED")
                        || String.valueOf(e.getCause()).contains("RESOURCE_EXHAUSTED"), e.toString());
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM lineitem")) {
                    rs.next();
                    assertEquals(60175, rs.getLong(1));
                }
            }
        }
    }
}
