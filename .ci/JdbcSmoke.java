import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A BI tool's first steps through the Arrow Flight SQL JDBC driver against a running server:
 * connect, list the tables, run a query. Usage: java -cp DRIVER_JAR JdbcSmoke.java PORT
 */
public class JdbcSmoke {
    public static void main(String[] args) throws Exception {
        String url = "jdbc:arrow-flight-sql://127.0.0.1:" + args[0] + "/?useEncryption=false";
        try (Connection c = DriverManager.getConnection(url);
             ResultSet tables = c.getMetaData().getTables(null, null, "nation", null);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT n_name FROM nation WHERE n_nationkey = 6")) {
            if (!tables.next()) {
                throw new AssertionError("getTables does not list nation");
            }
            if (!rs.next() || !"FRANCE".equals(rs.getString(1))) {
                throw new AssertionError("nation 6 is not FRANCE");
            }
        }
        System.out.println("jdbc smoke: ok");
    }
}
