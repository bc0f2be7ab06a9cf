package dev.starling.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleStatementsTest {
    @Test
    void cutsAtSemicolonsOutsideQuotesAndComments() {
        assertEquals(new ConsoleStatements(List.of("SELECT 1", "SELECT 2"), false),
                ConsoleStatements.of("SELECT 1; SELECT 2; -- done"));
        assertEquals(new ConsoleStatements(List.of("SELECT 'a;b', \"c;\" FROM t"), false),
                ConsoleStatements.of("SELECT 'a;b', \"c;\" FROM t;"));
        assertEquals(new ConsoleStatements(List.of("SELECT 'it''s' /* ; */"), false),
                ConsoleStatements.of("SELECT 'it''s' /* ; */;"));
        assertEquals(new ConsoleStatements(List.of(), true), ConsoleStatements.of("SELECT x -- pick;"));
        assertEquals(new ConsoleStatements(List.of(), true), ConsoleStatements.of("INSERT INTO t VALUES ('a;\nb"));
        assertEquals(new ConsoleStatements(List.of(), true), ConsoleStatements.of("SELECT /* ; "));
        assertEquals(new ConsoleStatements(List.of("SELECT 1"), true), ConsoleStatements.of("SELECT 1; SELECT"));
        assertEquals(new ConsoleStatements(List.of(), false), ConsoleStatements.of("  ; -- nothing"));
    }
}
