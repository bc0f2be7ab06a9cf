package dev.starling.storage.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordReaderTest {

    /** Hands out at most a few characters per read. */
    private static final class TrickleReader extends Reader {
        private final Reader in;
        private final Random random;

        TrickleReader(String text, long seed) {
            this.in = new StringReader(text);
            this.random = new Random(seed);
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            return in.read(buf, off, Math.min(len, 1 + random.nextInt(7)));
        }

        @Override
        public void close() { }
    }

    /** Each record as its fields; a quoted field is marked with a leading "Q:". */
    private static List<List<String>> records(Reader in, LoadFormat format) throws IOException {
        return records(new RecordReader(in, format));
    }

    private static List<List<String>> records(RecordReader r) throws IOException {
        List<List<String>> out = new ArrayList<>();
        while (r.next()) {
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < r.fieldCount(); i++) {
                String text = new String(r.text(), r.start(i), r.end(i) - r.start(i));
                fields.add(r.quoted(i) ? "Q:" + text : text);
            }
            out.add(fields);
        }
        return out;
    }

    private static List<List<String>> records(String text, LoadFormat format) throws IOException {
        return records(new StringReader(text), format);
    }

    @Test
    void tblLinesEndWithTheDelimiter() throws IOException {
        assertEquals(List.of(List.of("1", "a\"b", ""), List.of("2", "", "x")),
                records("1|a\"b||\r\n2||x|", LoadFormat.TBL));
    }

    @Test
    void csvQuotingFollowsRfc4180() throws IOException {
        String csv = "\uFEFFa,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,\"\"\nlast,x,\"y\"";
        assertEquals(List.of(
                        List.of("a", "Q:b,c", "Q:say \"hi\""),
                        List.of("Q:two\nlines", "", "Q:"),
                        List.of("last", "x", "Q:y")),
                records(csv, LoadFormat.CSV));
    }

    @Test
    void linesAreCountedAcrossQuotedNewlines() throws IOException {
        RecordReader r = new RecordReader(new StringReader("a,\"1\n2\n3\",b\nc,d,e\n"), LoadFormat.CSV);
        r.next();
        assertEquals(1, r.line());
        assertEquals(1, r.line(1));
        assertEquals(3, r.line(2));
        r.next();
        assertEquals(4, r.line());
        assertFalse(r.next());
    }

    @Test
    void recordsSplitAtAnyPointParseTheSame() throws IOException {
        Random random = new Random(7);
        String[] pieces = {"x", "\"", ",", "\n", "\r\n", "é", "  ", "|"};
        List<List<String>> expected = new ArrayList<>();
        StringBuilder csv = new StringBuilder();
        for (int row = 0; row < 3_000; row++) {
            List<String> fields = new ArrayList<>();
            for (int f = 0; f < 4; f++) {
                StringBuilder field = new StringBuilder();
                for (int k = random.nextInt(6); k > 0; k--) {
                    field.append(pieces[random.nextInt(pieces.length)]);
                }
                String value = field.toString();
                fields.add("Q:" + value);
                csv.append(f > 0 ? "," : "").append('"').append(value.replace("\"", "\"\"")).append('"');
            }
            expected.add(fields);
            csv.append(row % 2 == 0 ? "\n" : "\r\n");
        }
        assertEquals(expected, records(new RecordReader(new TrickleReader(csv.toString(), 1), LoadFormat.CSV, 4)));
    }

    @Test
    void aRecordLongerThanTheBufferIsRead() throws IOException {
        String longField = "y".repeat(300_000);
        assertEquals(List.of(List.of("1", longField), List.of("2", "z")),
                records(new TrickleReader("1|" + longField + "|\n2|z|\n", 3), LoadFormat.TBL));
    }

    @Test
    void malformedRecordsNameLineAndField() {
        var unclosed = assertThrows(MalformedRecordException.class,
                () -> records("a,b\nc,\"d\ne\n", LoadFormat.CSV));
        assertEquals("the quoted field is not closed", unclosed.getMessage());
        assertEquals(2, unclosed.line);
        assertEquals(2, unclosed.field);

        var afterQuote = assertThrows(MalformedRecordException.class,
                () -> records("a,b\n\n\"c\"x,d\n", LoadFormat.CSV));
        assertEquals("unexpected 'x' after the closing quote", afterQuote.getMessage());
        assertEquals(3, afterQuote.line);
        assertEquals(1, afterQuote.field);

        var noTrailing = assertThrows(MalformedRecordException.class, () -> records("1|2|\n3|4\n", LoadFormat.TBL));
        assertEquals("the line does not end with '|'", noTrailing.getMessage());
        assertEquals(2, noTrailing.line);

        var empty = assertThrows(MalformedRecordException.class, () -> records("1|2|\n\n", LoadFormat.TBL));
        assertEquals("the line is empty", empty.getMessage());
        assertEquals(2, empty.line);
    }
}
