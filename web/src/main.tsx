import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('app')!).render(<h1>SmartConnect</h1>);
