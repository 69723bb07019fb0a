export default function Screen() {
  return <div>models</div>;
}
