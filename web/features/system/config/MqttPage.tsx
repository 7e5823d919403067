/** MQTT settings: general, session, retainer and system topics as tabs, one route each. */
import { useLocation } from 'wouter';
import { ConfigPage } from '../../../ui/ConfigPage.tsx';
import { mqttPages } from './pages.ts';

export default function MqttPage() {
  const [path] = useLocation();
  const decl = mqttPages[path] ?? mqttPages['/mqtt/general'];
  return <ConfigPage key={path} decl={decl} />;
}
