package dev.starling.storage;

import java.io.IOException;
import java.nio.file.Path;

/** A second process for {@link DataDirectoryLockTest}: opens a data directory, says so, and holds it until its input ends. */
public final class HoldDataDirectory {
    private HoldDataDirectory() { }

    public static void main(String[] args) throws IOException {
        try (Catalog catalog = Catalog.open(Path.of(args[0]))) {
            System.out.println("held");
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the test closes our input
            }
        }
    }
}
