package dev.starling.storage.load;

import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

/**
 * Splits delimited text into records and fields without copying: after {@link #next()} each field
 * is a range of {@link #text()}. Lines end with LF or CRLF; with quoting, a field that starts with
 * '"' runs to the matching '"' and may span lines ("" inside it is one quote). A whole record is
 * kept in the buffer, which grows for long records up to {@link #MAX_RECORD_CHARS}.
 */
final class RecordReader {
    private static final int MAX_RECORD_CHARS = 1 << 26;
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private final Reader in;
    private final char delimiter;
    private final boolean quoting;
    private final boolean trailingDelimiter;

    private char[] buf;
    private int pos; // start of the next record
    private int limit; // end of the text read so far
    private boolean eof;
    private boolean started;
    private long nextLine = 1;
    private long line;
    private int at; // scan position in the record being split
    private int newlines; // line breaks passed in it so far

    private int fields;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private boolean[] quoted = new boolean[16];
    private boolean[] escaped = new boolean[16];
    private int[] lineInRecord = new int[16];

    RecordReader(Reader in, LoadFormat format) {
        this(in, format, 1 << 16);
    }

    /** A small initial buffer makes records cross buffer boundaries everywhere, which tests want. */
    RecordReader(Reader in, LoadFormat format, int initialBufferChars) {
        this.in = in;
        this.buf = new char[initialBufferChars];
        this.delimiter = format.delimiter();
        this.quoting = format.quoted();
        this.trailingDelimiter = format.trailingDelimiter();
    }

    /** Reads the next record; false at the end of the input. */
    boolean next() throws IOException {
        while (!scan()) {
            if (eof) {
                return false;
            }
            fill();
        }
        return true;
    }

    char[] text() {
        return buf;
    }

    int fieldCount() {
        return fields;
    }

    int start(int field) {
        return starts[field];
    }

    int end(int field) {
        return ends[field];
    }

    /** A quoted field is text even when it is empty or equals the NULL text. */
    boolean quoted(int field) {
        return quoted[field];
    }

    /** The line the current record starts on. */
    long line() {
        return line;
    }

    /** The line a field of the current record starts on (later than {@link #line()} after a quoted newline). */
    long line(int field) {
        return field < fields ? line + lineInRecord[field] : line;
    }

    /** The line where the next record would start, for errors between records. */
    long nextLine() {
        return nextLine;
    }

    /** What a field ended with: a delimiter, the end of the record, or the end of the buffer. */
    private static final int NEXT_FIELD = 0;
    private static final int RECORD_END = 1;
    private static final int NEED_MORE = 2;

    /**
     * Splits the record at {@code pos} into fields; false when there is none or it does not end in
     * the buffer yet (then it is scanned again from its start after {@link #fill()}).
     */
    private boolean scan() {
        if (pos == limit) {
            return false;
        }
        at = pos;
        fields = 0;
        newlines = 0;
        int step;
        do {
            if (at == limit && !eof) {
                return false;
            }
            step = quoting && at < limit && buf[at] == '"' ? quotedField() : plainField();
        } while (step == NEXT_FIELD);
        if (step == NEED_MORE) {
            return false;
        }
        line = nextLine;
        nextLine += newlines;
        finishRecord();
        pos = at;
        return true;
    }

    /** The field at {@code at}, which opens with a quote: up to the closing quote and what follows it. */
    private int quotedField() {
        int fieldLine = newlines;
        boolean escapes = false;
        int q = at + 1;
        while (true) {
            if (q == limit) {
                if (eof) {
                    throw new MalformedRecordException(lineAt(fieldLine), fields + 1, "the quoted field is not closed");
                }
                return NEED_MORE;
            }
            char c = buf[q];
            if (c == '"') {
                if (q + 1 < limit && buf[q + 1] == '"') {
                    escapes = true;
                    q += 2;
                    continue;
                }
                break; // the closing quote, or one whose next character is not read yet: checked below
            }
            if (c == '\n') {
                newlines++;
            }
            q++;
        }
        addField(at + 1, q, true, escapes, fieldLine);
        at = q + 1;
        if (at == limit) {
            return eof ? RECORD_END : NEED_MORE;
        }
        char c = buf[at];
        if (c == delimiter) {
            at++;
            return NEXT_FIELD;
        }
        if (c == '\r' && at + 1 == limit && !eof) {
            return NEED_MORE;
        }
        int eol = c == '\n' ? 1 : c == '\r' && at + 1 < limit && buf[at + 1] == '\n' ? 2 : 0;
        if (eol == 0) {
            throw new MalformedRecordException(lineAt(newlines), fields, "unexpected '" + c + "' after the closing quote");
        }
        at += eol;
        newlines++;
        return RECORD_END;
    }

    /** The field at {@code at}, up to a delimiter or the end of the line (without its CR). */
    private int plainField() {
        int q = at;
        while (q < limit && buf[q] != delimiter && buf[q] != '\n') {
            q++;
        }
        if (q < limit && buf[q] == delimiter) {
            addField(at, q, false, false, newlines);
            at = q + 1;
            return NEXT_FIELD;
        }
        if (q == limit && !eof) {
            return NEED_MORE;
        }
        addField(at, q > at && buf[q - 1] == '\r' ? q - 1 : q, false, false, newlines);
        if (q < limit) {
            q++;
            newlines++;
        }
        at = q;
        return RECORD_END;
    }

    /** The line of a position in the record being scanned, which started on {@code nextLine}. */
    private long lineAt(int newlinesInRecord) {
        return nextLine + newlinesInRecord;
    }

    private void finishRecord() {
        if (trailingDelimiter) {
            int last = fields - 1;
            if (fields < 2 || quoted[last] || starts[last] != ends[last]) {
                throw new MalformedRecordException(line, 0, fields == 1 && starts[0] == ends[0]
                        ? "the line is empty" : "the line does not end with '" + delimiter + "'");
            }
            fields--;
        }
        for (int i = 0; i < fields; i++) {
            if (escaped[i]) {
                unescape(i);
            }
        }
    }

    /** Turns each "" of a quoted field into one quote, in place: the text only shrinks. */
    private void unescape(int field) {
        int w = starts[field];
        for (int r = starts[field]; r < ends[field]; r++, w++) {
            buf[w] = buf[r];
            if (buf[r] == '"') {
                r++;
            }
        }
        ends[field] = w;
    }

    private void addField(int start, int end, boolean isQuoted, boolean hasEscapes, int newlinesBefore) {
        if (fields == starts.length) {
            int n = fields * 2;
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
            quoted = Arrays.copyOf(quoted, n);
            escaped = Arrays.copyOf(escaped, n);
            lineInRecord = Arrays.copyOf(lineInRecord, n);
        }
        starts[fields] = start;
        ends[fields] = end;
        quoted[fields] = isQuoted;
        escaped[fields] = hasEscapes;
        lineInRecord[fields] = newlinesBefore;
        fields++;
    }

    /**
     * Reads more text after the unfinished record, moving it to the front or growing the buffer.
     * It reads until the buffer is full, so that a record is rescanned only after the buffer moved
     * or doubled, however little each read returns.
     */
    private void fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        } else if (limit == buf.length) {
            if (buf.length >= MAX_RECORD_CHARS) {
                throw new MalformedRecordException(nextLine, 0, "the record is longer than " + MAX_RECORD_CHARS
                        + " characters");
            }
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        while (limit < buf.length) {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
                break;
            }
            limit += n;
        }
        if (!started && limit > 0) {
            started = true;
            if (buf[0] == BYTE_ORDER_MARK) {
                pos = 1;
            }
        }
    }
}
