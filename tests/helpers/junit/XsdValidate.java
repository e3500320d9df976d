// Validates XML files against an XML Schema with the JDK's own validator (javax.xml.validation).
// Usage: java XsdValidate.java schema.xsd a.xml [b.xml …] → one line per file: "valid" or "invalid: line N: …".
import java.io.File;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;

public class XsdValidate {
  public static void main(String[] args) throws Exception {
    var factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
    var schema = factory.newSchema(new File(args[0]));
    for (int i = 1; i < args.length; i++) {
      try {
        schema.newValidator().validate(new StreamSource(new File(args[i])));
        System.out.println("valid");
      } catch (org.xml.sax.SAXParseException e) {
        System.out.println("invalid: line " + e.getLineNumber() + ": " + e.getMessage().replace('\n', ' '));
      }
    }
  }
}
