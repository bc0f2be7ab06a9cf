package dev.starling.shell;

import java.nio.file.Path;
import org.jline.reader.EOFError;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.ParsedLine;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;

/**
 * The line editor of Starling's SQL consoles (JLine): a statement may span lines up to its ';'
 * ({@link Statements}), and SQL's backslashes and '!' are the statement's own, never escapes or
 * history references.
 */
public final class SqlLineReader {
    private static final String PROMPT = "starling> ";
    /** The prompt of a statement's further lines, as wide as {@link #PROMPT}. */
    private static final String CONTINUATION = "       -> ";

    private SqlLineReader() { }

    /** A reader on {@code terminal}; {@code history} keeps the statements typed across starts (null: none kept). */
    public static LineReader on(Terminal terminal, Path history) {
        UntilSemicolon parser = new UntilSemicolon();
        parser.setEscapeChars(null);
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).parser(parser)
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .variable(LineReader.SECONDARY_PROMPT_PATTERN, CONTINUATION);
        if (history != null) {
            builder.variable(LineReader.HISTORY_FILE, history);
        }
        return builder.build();
    }

    /**
     * Reads lines from {@code reader} until the end of input (Ctrl-D), handing each statement they
     * complete to {@code run}; Ctrl-C at the prompt clears the line.
     */
    public static void eachStatement(LineReader reader, java.util.function.Consumer<String> run) {
        while (true) {
            String line;
            try {
                line = reader.readLine(PROMPT);
            } catch (UserInterruptException cleared) {
                continue;
            } catch (EndOfFileException end) {
                return;
            }
            for (String statement : Statements.of(line).complete()) {
                run.accept(statement);
            }
        }
    }

    /** Input is accepted once its statements end with ';'; until then the reader asks for more lines. */
    private static final class UntilSemicolon extends DefaultParser {
        @Override
        public ParsedLine parse(String line, int cursor, ParseContext context) {
            if (context == ParseContext.ACCEPT_LINE && Statements.of(line).open()) {
                throw new EOFError(-1, -1, "the statement goes on to its ';'", ";");
            }
            return super.parse(line, cursor, context);
        }
    }
}
