package dev.starling.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementsTest {
    @Test
    void cutsAtSemicolonsOutsideQuotesAndComments() {
        assertEquals(new Statements(List.of("SELECT 1", "SELECT 2"), false),
                Statements.of("SELECT 1; SELECT 2; -- done"));
        assertEquals(new Statements(List.of("SELECT 'a;b', \"c;\" FROM t"), false),
                Statements.of("SELECT 'a;b', \"c;\" FROM t;"));
        assertEquals(new Statements(List.of("SELECT 'it''s' /* ; */"), false),
                Statements.of("SELECT 'it''s' /* ; */;"));
        assertEquals(new Statements(List.of(), true), Statements.of("SELECT x -- pick;"));
        assertEquals(new Statements(List.of(), true), Statements.of("INSERT INTO t VALUES ('a;\nb"));
        assertEquals(new Statements(List.of(), true), Statements.of("SELECT /* ; "));
        assertEquals(new Statements(List.of("SELECT 1"), true), Statements.of("SELECT 1; SELECT"));
        assertEquals(new Statements(List.of(), false), Statements.of("  ; -- nothing"));
    }
}
