import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Runs each argument after the port as a query through Flight SQL and prints its rows. */
public class FlightSmoke {
    public static void main(String[] args) throws Exception {
        try (RootAllocator allocator = new RootAllocator();
             FlightSqlClient sql = new FlightSqlClient(FlightClient.builder(allocator,
                     Location.forGrpcInsecure("127.0.0.1", Integer.parseInt(args[0]))).build())) {
            for (int q = 1; q < args.length; q++) {
                System.out.println("> " + args[q]);
                FlightInfo info = sql.execute(args[q]);
                for (FlightEndpoint e : info.getEndpoints()) {
                    try (FlightStream s = sql.getStream(e.getTicket())) {
                        while (s.next()) {
                            VectorSchemaRoot root = s.getRoot();
                            System.out.print(root.contentToTSVString());
                        }
                    }
                }
            }
        }
    }
}
